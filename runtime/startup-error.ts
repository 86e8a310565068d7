// A setting or environment problem the user fixes: printed as its message alone, one line, no stack
// (runtime/server/startup-errors.ts says the rest). Here, at the floor, so that the environment's
// reader (values from files) can raise it too.
export class StartupError extends Error {}
