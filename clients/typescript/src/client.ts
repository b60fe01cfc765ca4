/**
 * A tiny typed client for the Skyjo service: `fetch` plus the types that openapi-typescript
 * generates from the repository's openapi.yaml into src/generated/schema.d.ts
 * (`npm run generate`). Every request and answer type below is derived from the schema, so a
 * change to the contract that breaks this client breaks `npm run typecheck`.
 */

import type { components, paths } from "./generated/schema.js";

export type Schemas = components["schemas"];
export type Game = Schemas["Game"];
export type Joined = Schemas["Joined"];
export type BotJoined = Schemas["BotJoined"];
export type LegalAction = Schemas["LegalAction"];
export type ActionKind = LegalAction["action"];
export type Problem = Schemas["Problem"];

type Method = "get" | "post";
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/** The JSON request body of an operation. */
export type RequestBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { "application/json": infer Body } } }
    ? Body
    : never;

/** The JSON answer of an operation's success (200 or 201). */
export type Answer<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? R extends { 200: { content: { "application/json": infer A } } }
      ? A
      : R extends { 201: { content: { "application/json": infer A } } }
        ? A
        : never
    : never;

/** The query parameters of an operation. */
export type Query<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type CreateGameRequest = RequestBody<"/api/v1/games", "post">;
export type JoinRequest = RequestBody<"/api/v1/games/{game_id}/players", "post">;
/** A person's join names the player; a bot's names its strategy (and a name, if you like). */
export type PersonJoinRequest = Required<Pick<JoinRequest, "name">>;
export type BotJoinRequest = Required<Pick<JoinRequest, "bot">> & Pick<JoinRequest, "name">;
export type GameList = Answer<"/api/v1/games", "get">;
export type ListGamesQuery = Query<"/api/v1/games", "get">;

/** Where any legal action is sent as it is listed; its body is exactly a `LegalAction`. */
const ACTIONS_PATH = "/api/v1/games/{game_id}/actions" satisfies keyof paths;
/** Fails to compile unless the endpoint takes a legal action and answers the seat's view. */
const actionsTakeLegalActions: [RequestBody<typeof ACTIONS_PATH, "post">] extends [LegalAction]
  ? [Answer<typeof ACTIONS_PATH, "post">] extends [Game]
    ? true
    : never
  : never = true;
void actionsTakeLegalActions;

/** An error answer of the service: an RFC 9457 problem with a stable `code`. */
export class ProblemError extends Error {
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = "ProblemError";
    this.problem = problem;
  }
}

export interface ClientOptions {
  /** The service's root URL, e.g. http://127.0.0.1:8000 */
  baseUrl: string;
  /** A seat token (from `joinGame`): act for that seat and see what it may see. */
  token?: string;
  fetch?: typeof fetch;
}

/** Conditions on an action: `ifMatch` (the version you saw), `idempotencyKey` (safe retries). */
export interface ActionConditions {
  ifMatch?: number;
  idempotencyKey?: string;
}

export class SkyjoClient {
  private readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly fetcher: typeof fetch;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.token = options.token;
    this.fetcher = options.fetch ?? fetch;
  }

  /** The same client acting for a seat. */
  withToken(token: string): SkyjoClient {
    return new SkyjoClient({ baseUrl: this.baseUrl, token, fetch: this.fetcher });
  }

  listGames(query: ListGamesQuery = {}): Promise<GameList> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) search.set(name, String(value));
    }
    const suffix = search.toString() ? `?${search.toString()}` : "";
    return this.send("GET", `/api/v1/games${suffix}`);
  }

  createGame(body: CreateGameRequest): Promise<Answer<"/api/v1/games", "post">> {
    return this.send("POST", "/api/v1/games", body);
  }

  /** Take the next open seat for a person: the answer holds the seat's token, shown once. */
  joinGame(gameId: string, body: PersonJoinRequest): Promise<Joined> {
    return this.send("POST", gamePath("/api/v1/games/{game_id}/players", gameId), body);
  }

  /** Seat a bot playing a strategy of `GET /api/v1/bots`: the service plays it, no token. */
  seatBot(gameId: string, body: BotJoinRequest): Promise<BotJoined> {
    return this.send("POST", gamePath("/api/v1/games/{game_id}/players", gameId), body);
  }

  getGame(gameId: string): Promise<Answer<"/api/v1/games/{game_id}", "get">> {
    return this.send("GET", gamePath("/api/v1/games/{game_id}", gameId));
  }

  /** Send one of the game's `legal_actions` as it is listed; answers the seat's new view. */
  act(gameId: string, action: LegalAction, conditions: ActionConditions = {}): Promise<Game> {
    const headers: Record<string, string> = {};
    if (conditions.ifMatch !== undefined) headers["If-Match"] = `"${conditions.ifMatch}"`;
    if (conditions.idempotencyKey !== undefined) {
      headers["Idempotency-Key"] = conditions.idempotencyKey;
    }
    return this.send("POST", gamePath(ACTIONS_PATH, gameId), action, headers);
  }

  private async send<T>(
    method: "GET" | "POST",
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const all: Record<string, string> = { Accept: "application/json", ...headers };
    if (this.token !== undefined) all["Authorization"] = `Bearer ${this.token}`;
    const init: RequestInit = { method, headers: all };
    if (body !== undefined) {
      all["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await this.fetcher(`${this.baseUrl}${path}`, init);
    const data: unknown = await response.json();
    if (!response.ok) {
      throw isProblem(data) ? new ProblemError(data) : new Error(`HTTP ${response.status}`);
    }
    return data as T;
  }
}

function gamePath(template: keyof paths, gameId: string): string {
  return template.replace("{game_id}", encodeURIComponent(gameId));
}

function isProblem(data: unknown): data is Problem {
  return typeof data === "object" && data !== null && "code" in data && "status" in data;
}

/** A low card (this or less) is worth placing on a face-down card. */
const LOW_CARD = 3;

/**
 * Pick one of the viewer's legal actions, or undefined when it has none. A card in hand
 * replaces a higher face-up card, or a face-down card if it is low; else a drawn card is
 * discarded. Any other choice (draw or take, reveals) is random among the legal ones.
 */
export function chooseAction(
  game: Game,
  random: () => number = Math.random,
): LegalAction | undefined {
  const legal = game.legal_actions;
  const held = game.held_card?.value ?? null;
  const grid = game.you === null ? undefined : game.players[game.you]?.grid;
  if (held !== null && grid !== undefined) {
    const worthIt = (action: LegalAction): boolean => {
      if (action.action !== "replace") return false;
      const cell = grid[action.column]?.[action.row];
      if (cell === undefined || cell.state === "removed") return false;
      return cell.state === "face_down" ? held <= LOW_CARD : (cell.value ?? held) > held;
    };
    const replace = legal.find(worthIt);
    if (replace !== undefined) return replace;
    const discard = legal.find((action) => action.action === "discard");
    if (discard !== undefined) return discard;
  }
  return legal[Math.floor(random() * legal.length)];
}
