-- Finding turns without a "done" event at start-up (crash recovery) looks
-- events up by session and turn.
CREATE INDEX agent_events_turn ON agent_events (session_id, turn, kind);
