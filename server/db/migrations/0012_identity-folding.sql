-- Reserved migration slot; replaced by its real statements (hand-written SQL).
SELECT 1;
