/**
 * Plays a whole game through the typed client: creates a game, takes every seat, and picks from
 * `legal_actions` until it is finished. Prints one JSON line with the outcome.
 *
 *   npm run build && node dist/play.js http://127.0.0.1:8000 [seats] [end score] [seed]
 *
 * The seed makes the game reproducible: it seeds the service's shuffles and this player's choices.
 */

import { ProblemError, SkyjoClient, chooseAction } from "./client.js";
import type { ActionKind, Game } from "./client.js";

declare const process: { argv: string[]; exitCode?: number };

export interface Outcome {
  game: string;
  status: Game["status"];
  rounds: number;
  totals: number[];
  winners: number[];
  actions: Partial<Record<ActionKind, number>>;
  notYourTurn: string;
}

/** A small seeded random generator (mulberry32): numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function play(baseUrl: string, seats = 2, endScore = 40, seed = 1): Promise<Outcome> {
  const random = seededRandom(seed);
  const lobby = new SkyjoClient({ baseUrl });
  const created = await lobby.createGame({ seats, options: { end_score: endScore }, seed });
  const players: SkyjoClient[] = [];
  for (let seat = 0; seat < seats; seat++) {
    const joined = await lobby.joinGame(created.id, { name: `TypeScript ${seat + 1}` });
    players.push(lobby.withToken(joined.token));
  }

  const actions: Partial<Record<ActionKind, number>> = {};
  let notYourTurn = "";
  for (;;) {
    for (const [seat, player] of players.entries()) {
      let game = await player.getGame(created.id);
      if (game.status === "finished") {
        return {
          game: game.id,
          status: game.status,
          rounds: game.rounds.length,
          totals: game.players.map((p) => p.total),
          winners: game.winners ?? [],
          actions,
          notYourTurn,
        };
      }
      const other = players[(seat + 1) % players.length];
      if (game.status === "playing" && game.current_seat === seat && notYourTurn === "") {
        // Errors are typed problems: another seat's draw is refused with `not_your_turn`.
        try {
          await other?.act(created.id, { action: "draw" });
          notYourTurn = "accepted";
        } catch (error) {
          if (!(error instanceof ProblemError)) throw error;
          notYourTurn = error.problem.code;
        }
      }
      for (let action = chooseAction(game, random); action; action = chooseAction(game, random)) {
        game = await player.act(created.id, action, { ifMatch: game.version });
        actions[action.action] = (actions[action.action] ?? 0) + 1;
      }
    }
  }
}

const [, , baseUrl, seats = "2", endScore = "40", seed = "1"] = process.argv;
if (baseUrl !== undefined) {
  play(baseUrl, Number(seats), Number(endScore), Number(seed)).then(
    (outcome) => console.log(JSON.stringify(outcome)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
