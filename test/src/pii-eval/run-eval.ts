// `npm run eval:pii`: precision, recall and F1 per type on the presidio-research synthetic set and on the
// generated UK/EU set. Options: --presidio <path> (default: ../shared/data/pii/… from the repo root),
// --seed <n>, --size <n>, --show-errors (prints each miss and false positive with its context; the data
// is synthetic, which is the only reason values may be printed here).
import { fileURLToPath } from 'node:url';
import { CORE_PII_TYPES, detect, PII_TYPES } from '@gateway/proxy/privacy';
import type { PiiType } from '@gateway/proxy/privacy';
import { DEFAULT_SEED, DEFAULT_SIZE, generateUkEuSet } from './generate-uk-eu-set.js';
import type { LabelledText } from './labelled-text.js';
import { loadPresidioCorpus, PRESIDIO_LABELS } from './presidio-corpus.js';
import { formatScores } from './report.js';
import { emptyScores, scoreText } from './score.js';

// This file is test/dist/src/pii-eval/run-eval.js once built: four levels below the repo root.
const DEFAULT_PRESIDIO = fileURLToPath(
  new URL('../../../../../shared/data/pii/presidio-research-synth_dataset_v2.json', import.meta.url),
);

interface Options {
  presidio: string;
  seed: number;
  size: number;
  showErrors: boolean;
}

function parseArgs(args: readonly string[]): Options {
  const options: Options = { presidio: DEFAULT_PRESIDIO, seed: DEFAULT_SEED, size: DEFAULT_SIZE, showErrors: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const next = (): string => {
      const value = args[++i];
      if (value === undefined) throw new Error(`${arg ?? ''} needs a value`);
      return value;
    };
    if (arg === '--presidio') options.presidio = next();
    else if (arg === '--seed') options.seed = Number(next());
    else if (arg === '--size') options.size = Number(next());
    else if (arg === '--show-errors') options.showErrors = true;
    else throw new Error(`unknown option ${arg ?? ''}`);
  }
  return options;
}

function evaluate(
  title: string,
  corpus: readonly LabelledText[],
  types: readonly PiiType[],
  showErrors: boolean,
): string {
  const scores = emptyScores(types);
  const errors: string[] = [];
  for (const sample of corpus) {
    for (const e of scoreText(sample.spans, detect(sample.text), scores)) {
      if (!showErrors) continue;
      const before = sample.text.slice(Math.max(0, e.start - 30), e.start);
      const after = sample.text.slice(e.end, e.end + 20);
      const value = sample.text.slice(e.start, e.end);
      errors.push(`  ${e.kind} ${e.type}: ${JSON.stringify(before)} [${value}] ${JSON.stringify(after)}`);
    }
  }
  const table = formatScores(title, scores, new Set<PiiType>(CORE_PII_TYPES));
  return errors.length > 0 ? `${table}${errors.join('\n')}\n` : table;
}

export async function runEval(args: readonly string[]): Promise<string> {
  const options = parseArgs(args);
  const presidio = await loadPresidioCorpus(options.presidio);
  // Presidio: the core types (UK ones have no gold spans there, so only false positives can show) plus
  // nothing else: it labels none of our extra types.
  const presidioTypes = [...new Set<PiiType>([...CORE_PII_TYPES, ...Object.values(PRESIDIO_LABELS)])];
  const ukEu = generateUkEuSet(options.seed, options.size);
  const match = 'overlap match, same type';
  return [
    evaluate(`presidio-research synth_dataset_v2: ${presidio.length} texts; ${match}`, presidio, presidioTypes, options.showErrors),
    evaluate(`generated UK/EU set (seed ${options.seed}): ${ukEu.length} texts; ${match}`, ukEu, PII_TYPES, options.showErrors),
  ].join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  runEval(process.argv.slice(2)).then(
    (report) => process.stdout.write(report),
    (err: unknown) => {
      process.stderr.write(`eval failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
