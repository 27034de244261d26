// ownvoice-engine: the Voice engine without the web app.
//   build-tiny-model   rebuild the tiny house model from corpus/
//   train              train a Voice on files of someone's writing
//   rewrite            rewrite text in a Voice with Convert's rewrite, keeping the layout
//   generate           continue a prompt with the base model or a Voice
//   eval               measure a Voice against writing it did not train on
//   harness            train a Voice per writer and measure content kept, style moved, fluency
//   fetch-model        fetch a base model into the data folder once, and print its path
//   fetch-embedding-model  fetch the harness's sentence-embedding model once, and print its folder
// This file answers the usage and mistakes alone; a command loads the engine (commands.ts).
import { COMMANDS, type Command, parseArguments, USAGE, UsageError } from './usage.js';

export async function main(argv: string[]): Promise<number> {
  const {
    values,
    positionals: [command, ...positionals],
  } = parseArguments(argv);
  // Asked for, the usage is the answer: standard output and success, whatever else was given.
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!command) {
    console.error(USAGE);
    return 0;
  }
  if (!(COMMANDS as readonly string[]).includes(command)) throw new UsageError(`unknown command ${command}`);
  const { runCommand } = await import('./commands.js');
  return runCommand(command as Command, values, positionals);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : `error: ${(error as Error).message}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
