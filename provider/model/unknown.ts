/**
 * The value Pulumi passes to check/diff during preview for a value not known yet (and a plugin answers for an
 * output it cannot plan). A module of its own, so that what needs only it (the bench's do-nothing plugin)
 * loads nothing else.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
