-- 0029: the tally trigger (0008, 0018, 0027) runs without JIT compilation.
--
-- Its fifth statement (0027's answers) unnests each changed row's choices through two set-returning functions that
-- the planner counts as 100 rows each, so a statement changing 1,000 rows is costed at millions and, on a server
-- with JIT (PostgreSQL's default), compiled to machine code before it runs: about 450 ms each time, where running
-- it takes under 1 ms. An import writes a statement of 1,000 rows at a time, so this was most of its time.
-- Every statement the trigger runs reads only the rows its statement changed: compiling never pays off.
ALTER FUNCTION waitlist_tally_trigger() SET jit = off;
