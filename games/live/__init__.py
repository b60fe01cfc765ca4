"""The push: the per-process hub that learns when games move and wakes whoever waits
(`fanout`), viewers' streams (`streams`; on the stream tier, as coroutines: `astreams`),
Server-Sent Events framing (`sse`), the request gate
(`gate`, imported by the WSGI entry point before Django is set up: so this door imports
nothing) and a stream's bounded sends (`sending`). It learns that a game moved from the use
cases' `game_moved` signal, connected in `games.apps`."""
