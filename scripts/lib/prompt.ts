import readline from 'node:readline';
import { CliError } from './cli.js';

/** Questions for the scripts: on a terminal they ask; otherwise a secret is one line of standard input. */

type Input = NodeJS.ReadStream;
type Output = NodeJS.WritableStream;

/** One line from a non-terminal input (piped or redirected); undefined at end of input with nothing read. */
export function readLine(input: Input): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input, terminal: false });
    let line: string | undefined;
    rl.once('line', (l) => {
      line = l;
      rl.close();
    });
    rl.once('close', () => {
      input.pause();
      resolve(line);
    });
    input.once('error', reject);
  });
}

/** Reads what is typed on the terminal without echoing it; Ctrl-C cancels. */
export function readHidden(question: string, input: Input, output: Output): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = '';
    const done = (err?: Error) => {
      input.setRawMode(false);
      input.off('data', onData);
      input.pause();
      output.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done();
        if (ch === '\u0003') return done(new CliError('cancelled', 130));
        if (ch === '\u007f' || ch === '\b') value = Array.from(value).slice(0, -1).join('');
        else if (ch >= ' ') value += ch;
      }
    };
    // Raw mode before the prompt, so nothing typed after it is echoed.
    input.setRawMode(true);
    output.write(question);
    input.resume();
    input.on('data', onData);
  });
}

/**
 * The password for a script: asked twice on a terminal (nothing echoed), else the first line of standard input.
 * `check` runs on the first answer so a bad one is refused before asking again.
 */
export async function readPassword(check: (password: string) => void, input: Input = process.stdin, output: Output = process.stderr): Promise<string> {
  if (!input.isTTY) {
    const line = await readLine(input);
    if (line === undefined) throw new CliError('no password: pass --password, or one line on standard input');
    check(line);
    return line;
  }
  const password = await readHidden('Password: ', input, output);
  check(password);
  if ((await readHidden('Repeat the password: ', input, output)) !== password) throw new CliError('the two passwords differ');
  return password;
}

/** y/N on a terminal; false for anything but y or yes. */
export function confirm(question: string, input: Input = process.stdin, output: Output = process.stderr): Promise<boolean> {
  const rl = readline.createInterface({ input, output });
  return new Promise((resolve) => {
    rl.question(`${question} [y/N] `, (answer) => {
      rl.close();
      resolve(/^y(es)?$/i.test(answer.trim()));
    });
  });
}
