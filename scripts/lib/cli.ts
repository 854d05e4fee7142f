/** A problem a script reports as its message alone, with its exit code (2: bad usage or input). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Runs a script's main: a CliError prints its message with its code, any other failure its message with 1. */
export async function runCli(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = err instanceof CliError ? err.exitCode : 1;
  }
}
