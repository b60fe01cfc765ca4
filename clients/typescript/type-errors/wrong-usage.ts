/**
 * Deliberately wrong uses of the client: none of them may compile. Each wrong line ends with the
 * TypeScript error it must raise (`// TSnnnn`); tests/clients/test_typescript_client.py compiles
 * this file with tsconfig.type-errors.json and checks that exactly these lines fail, so the
 * generated types are proven to be real types, not `any`.
 */

import { SkyjoClient } from "../src/client.js";
import type { Game, Problem } from "../src/client.js";

export async function wrongUsage(game: Game, problem: Problem): Promise<void> {
  const client = new SkyjoClient({ baseUrl: "http://127.0.0.1:8000" });

  // Request bodies: field types, required fields, unknown fields, enums.
  await client.createGame({ seats: "two" }); // TS2322
  await client.createGame({ seed: 42 }); // TS2345
  await client.createGame({ seats: 2, options: { closer_penalty: "yes" } }); // TS2322
  await client.joinGame(game.id, { nickname: "Ada" }); // TS2353
  await client.act(game.id, { action: "pass" }); // TS2322
  await client.listGames({ status: "over" }); // TS2322

  // Answers: nullable fields, enums, field names.
  const top: number = game.discard_top; // TS2322
  const drawn: number = game.held_card.value ?? 0; // TS18047
  if (game.status === "over") return; // TS2367
  const score: number = game.score; // TS2339
  const code: number = problem.code; // TS2322
  void [top, drawn, score, code];
}
