-- Intentionally empty: reserved while the event-stream work was planned; the in-memory room snapshot
-- needed no schema change.
SELECT 1;
