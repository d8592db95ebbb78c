-- Reserved slot; replaced by the change that owns it.
SELECT 1;
