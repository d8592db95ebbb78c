-- Intentionally empty: reserved while the fault-handling work was planned; it needed no schema change
-- (the app's own database role is created at start by server/db/embedded-postgres.ts, not by a migration).
SELECT 1;
