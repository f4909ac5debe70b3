/** The bounds of an API token (issue 55), shared by its schema and its rules (no crypto here: the console's type check reads the schemas). */

/** The longest a token lives: a year. */
export const MAX_TOKEN_DAYS = 366;
