// `npm run eval:pii`: precision, recall and F1 per type on the presidio-research synthetic set, on the generated
// UK/EU set, and per type and language on the generated multilingual set (names from the package's lists, then
// names the detector's lists lack), PERSON and PHONE in sentences their rules were not written against, and false
// positives per 100 KB of generated agent prompts; false PERSON findings per 100 KB and real names found on the
// agent-text set (test/fixtures/agent-text: real code, logs, traces, diffs, JSON, man pages; dev and held-out apart);
// then PERSON on real text (the held-out part of the name tagger's corpora, read from --corpora or
// NAMES_CORPORA_DIR and names-model/corpora, where npm run corpora:names materialises them). --only agent-text: that set's tables alone.
// Options: --presidio <path> (default: ../shared/data/pii/… from the repo root), --seed <n>, --size <n> (UK/EU
// set), --per-language <n>, --lang <en,de,…>, --agent-prompts <n>, --corpora <dir>, --names-manifest <file> (the
// real text of another manifest's sources), --show-errors (prints each miss and false
// positive with its context; the data is synthetic, which is the only reason values may be printed here),
// --compare-model <file.bin> (repeatable; else NAMES_COMPARE_MODEL): another trained name model (say the commercial
// profile's, from `npm run train:names -- --profile commercial --out …`), checked against its note like the proxy
// checks its own and scored beside the shipped one on the agent prompts and the real text. Nothing is downloaded.
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORE_PII_TYPES, detect, openNameModel, PII_TYPES, SHIPPED_NAME_MODEL_FILE, useNameModel } from '@gateway/privacy';
import type { PiiType } from '@gateway/privacy';
import { generateAgentPrompts } from './agent-prompts.js';
import { DEFAULT_SEED, DEFAULT_SIZE, generateUkEuSet } from './generate-uk-eu-set.js';
import { LANGUAGES } from './languages.js';
import type { Language } from './languages.js';
import { DEFAULT_MULTILINGUAL_SEED, DEFAULT_PER_LANGUAGE, generateMultilingualSet, generateUnseenPhoneSet, generateUnseenSentenceSet } from './multilingual-set.js';
import type { LanguageSample, NameSource } from './multilingual-set.js';
import type { LabelledText } from './labelled-text.js';
import { loadPresidioCorpus, PRESIDIO_LABELS } from './presidio-corpus.js';
import { evaluateAgentText } from './agent-text-report.js';
import { evaluateRealText, type EvalModel } from './real-text.js';
import { formatLanguageMatrix, formatScores } from './report.js';
import { emptyScores, scoreText } from './score.js';
import type { Scores } from './score.js';

// This file is test/dist/src/pii-eval/run-eval.js once built: four levels below the repo root.
const DEFAULT_PRESIDIO = fileURLToPath(
  new URL('../../../../../shared/data/pii/presidio-research-synth_dataset_v2.json', import.meta.url),
);

/** The core types, marked apart from the extra ones in the tables. */
const CORE_TYPES: ReadonlySet<PiiType> = new Set<PiiType>(CORE_PII_TYPES);

interface Options {
  presidio: string;
  seed: number;
  size: number;
  perLanguage: number;
  langs: Language[];
  agentPrompts: number;
  showErrors: boolean;
  /** --dev-errors: the agent-text errors in context, of the dev part alone (the part rules may be tuned on). */
  devErrors: boolean;
  /** Where the name tagger's corpora are (--corpora, else NAMES_CORPORA_DIR); names-model/corpora is always read after. */
  corpora: string[];
  /** --names-manifest: the manifest whose held-out parts the real-text section scores (names-model/manifest.json). */
  namesManifest?: string;
  /** Name model files scored beside the shipped one (--compare-model, else NAMES_COMPARE_MODEL). */
  compareModels: string[];
  /** --only agent-text: the agent-text tables alone (the other sections take minutes, this one seconds). */
  only: 'all' | 'agent-text';
}

function parseLangs(value: string): Language[] {
  const langs = value.split(',').map((l) => l.trim());
  const unknown = langs.filter((l) => !(LANGUAGES as readonly string[]).includes(l));
  if (unknown.length > 0) throw new Error(`unknown language ${unknown.join(', ')} (known: ${LANGUAGES.join(', ')})`);
  return langs as Language[];
}

function parseArgs(args: readonly string[]): Options {
  const options: Options = {
    presidio: DEFAULT_PRESIDIO,
    seed: DEFAULT_SEED,
    size: DEFAULT_SIZE,
    perLanguage: DEFAULT_PER_LANGUAGE,
    langs: [...LANGUAGES],
    agentPrompts: 40,
    showErrors: false,
    devErrors: false,
    corpora: process.env.NAMES_CORPORA_DIR === undefined || process.env.NAMES_CORPORA_DIR === '' ? [] : [process.env.NAMES_CORPORA_DIR],
    compareModels: process.env.NAMES_COMPARE_MODEL === undefined || process.env.NAMES_COMPARE_MODEL === '' ? [] : [process.env.NAMES_COMPARE_MODEL],
    only: 'all',
  };
  let compareGiven = false;
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
    else if (arg === '--per-language') options.perLanguage = Number(next());
    else if (arg === '--lang') options.langs = parseLangs(next());
    else if (arg === '--agent-prompts') options.agentPrompts = Number(next());
    else if (arg === '--show-errors') options.showErrors = true;
    else if (arg === '--dev-errors') options.devErrors = true;
    else if (arg === '--corpora') options.corpora = [next()];
    else if (arg === '--names-manifest') options.namesManifest = next();
    else if (arg === '--only') {
      const only = next();
      if (only !== 'agent-text') throw new Error(`--only takes agent-text, not ${only}`);
      options.only = only;
    }
    else if (arg === '--compare-model') {
      // The option replaces the environment's model rather than adding to it.
      if (!compareGiven) options.compareModels = [];
      compareGiven = true;
      options.compareModels.push(next());
    }
    else throw new Error(`unknown option ${arg ?? ''}`);
  }
  return options;
}

/** Scores `corpus` into `scores`; returns each error in context when `showErrors`. */
function score(corpus: readonly LabelledText[], scores: Scores, showErrors: boolean): string[] {
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
  return errors;
}

function withErrors(table: string, errors: readonly string[]): string {
  return errors.length > 0 ? `${table}${errors.join('\n')}\n` : table;
}

function evaluate(title: string, corpus: readonly LabelledText[], types: readonly PiiType[], showErrors: boolean): string {
  const scores = emptyScores(types);
  const errors = score(corpus, scores, showErrors);
  return withErrors(formatScores(title, scores, CORE_TYPES), errors);
}

/** Per-language tables and one matrix of precision/recall per type and language. */
function evaluateLanguages(options: Options, names: NameSource): string {
  const set = generateMultilingualSet(DEFAULT_MULTILINGUAL_SEED, options.perLanguage, options.langs, names);
  const byLang = new Map<Language, Scores>();
  const parts: string[] = [];
  for (const lang of options.langs) {
    const scores = emptyScores(PII_TYPES);
    const samples: LanguageSample[] = set.filter((s) => s.lang === lang);
    const errors = score(samples, scores, options.showErrors);
    for (const [type, t] of scores) if (t.tp + t.fp + t.fn === 0) scores.delete(type);
    byLang.set(lang, scores);
    if (names === 'package') {
      parts.push(withErrors(formatScores(`multilingual set, ${lang}: ${samples.length} texts`, scores, CORE_TYPES), errors));
    } else if (errors.length > 0) {
      parts.push(`${lang} errors (held-out names):\n${errors.join('\n')}\n`);
    }
  }
  const title =
    names === 'package'
      ? `multilingual set (seed ${DEFAULT_MULTILINGUAL_SEED}), precision / recall per type and language; names from @faker-js/faker's lists`
      : 'the same set with names the detector\'s lists lack (held out): precision / recall';
  parts.push(formatLanguageMatrix(title, byLang, names === 'package' ? undefined : 'PERSON'));
  return parts.join('\n');
}

/** One type's precision / recall per language on `set`, its errors first when asked for. */
function languageMatrix(options: Options, set: readonly LanguageSample[], type: PiiType, title: string, errorsTitle: string): string {
  const byLang = new Map<Language, Scores>();
  const errors: string[] = [];
  for (const lang of options.langs) {
    const scores = emptyScores(PII_TYPES);
    errors.push(...score(set.filter((s) => s.lang === lang), scores, options.showErrors));
    byLang.set(lang, scores);
  }
  const matrix = formatLanguageMatrix(title, byLang, type);
  return errors.length > 0 ? `${errorsTitle}, errors:\n${errors.join('\n')}\n\n${matrix}` : matrix;
}

/**
 * PERSON in sentences the name rules were not written against, with faker's names and with held-out names; PHONE
 * in sentences the phone rules were not written against.
 */
function evaluateUnseenSentences(options: Options): string {
  const parts: string[] = [];
  for (const names of ['package', 'held-out'] as const) {
    const source = names === 'package' ? "faker's names" : 'held-out names';
    parts.push(languageMatrix(options, generateUnseenSentenceSet(DEFAULT_MULTILINGUAL_SEED, 200, options.langs, names), 'PERSON',
      `sentences the name rules were not written against (200 per language), ${source}: precision / recall`, `unseen sentences, ${source}`));
  }
  parts.push(languageMatrix(options, generateUnseenPhoneSet(DEFAULT_MULTILINGUAL_SEED, 200, options.langs), 'PHONE',
    'sentences the phone rules were not written against (200 per language): precision / recall', 'unseen phone sentences'));
  return parts.join('\n');
}

/**
 * False positives per 100 KB of agent prompt, in all and PERSON alone, and how many of its labelled values were
 * found: one line per model, each installed in turn.
 */
function evaluateAgentPrompts(options: Options, models: readonly EvalModel[]): string {
  const prompts = generateAgentPrompts(options.seed, options.agentPrompts);
  const bytes = prompts.reduce((n, p) => n + Buffer.byteLength(p.text), 0);
  const per100k = (n: number): string => (n / (bytes / 102400)).toFixed(2);
  const lines = [`agent prompts: ${prompts.length} of ${Math.round(bytes / prompts.length / 1024)} KB on average (${(bytes / 1024).toFixed(0)} KB)`];
  const errors: string[] = [];
  for (const m of models) {
    useNameModel(m.model);
    const scores = emptyScores(PII_TYPES);
    const modelErrors = score(prompts, scores, options.showErrors);
    if (modelErrors.length > 0) errors.push(`errors, ${m.label}:`, ...modelErrors);
    let fp = 0;
    let tp = 0;
    let gold = 0;
    for (const t of scores.values()) {
      fp += t.fp;
      tp += t.tp;
      gold += t.tp + t.fn;
    }
    const person = scores.get('PERSON');
    const perFp = [...scores].filter(([, t]) => t.fp > 0).map(([type, t]) => `${type}=${t.fp}`).join(', ') || 'none';
    lines.push(
      `  ${m.label}: ${per100k(fp)} false positives per 100 KB (${fp}: ${perFp}), PERSON ${per100k(person?.fp ?? 0)} per 100 KB; ` +
        `${tp} of ${gold} labelled values found (PERSON ${person?.tp ?? 0} of ${(person?.tp ?? 0) + (person?.fn ?? 0)})`,
    );
  }
  return withErrors(`${lines.join('\n')}\n`, errors);
}

/** The shipped model and each model to compare, checked against their notes as the proxy checks its own. */
function modelsToScore(options: Options): EvalModel[] {
  const shipped = openNameModel(SHIPPED_NAME_MODEL_FILE);
  const models: EvalModel[] = [{ label: `shipped (${shipped.profile})`, model: shipped.model }];
  for (const file of options.compareModels) {
    const checked = openNameModel(file);
    // Two builds of one profile are told apart by the directory each lies in (names-model/out/<name>/).
    const label = models.some((m) => m.label === checked.profile) ? `${checked.profile}: ${basename(dirname(file))}` : checked.profile;
    models.push({ label, model: checked.model });
  }
  return models;
}

export async function runEval(args: readonly string[]): Promise<string> {
  const options = parseArgs(args);
  const models = modelsToScore(options);
  const shipped = models[0] as EvalModel;
  if (options.only === 'agent-text') {
    try {
      return evaluateAgentText({ models, showErrors: options.showErrors, devErrors: options.devErrors });
    } finally {
      useNameModel(shipped.model);
    }
  }
  // The synthetic tables score the shipped model; the agent prompts and the real text score every model side by side.
  useNameModel(shipped.model);
  const presidio = await loadPresidioCorpus(options.presidio);
  // Presidio: the core types (UK ones have no gold spans there, so only false positives can show) plus
  // nothing else: it labels none of our extra types.
  const presidioTypes = [...new Set<PiiType>([...CORE_PII_TYPES, ...Object.values(PRESIDIO_LABELS)])];
  const ukEu = generateUkEuSet(options.seed, options.size);
  const match = 'overlap match, same type';
  const parts = [
    evaluate(`presidio-research synth_dataset_v2: ${presidio.length} texts; ${match}`, presidio, presidioTypes, options.showErrors),
    evaluate(`generated UK/EU set (seed ${options.seed}): ${ukEu.length} texts; ${match}`, ukEu, PII_TYPES, options.showErrors),
    evaluateLanguages(options, 'package'),
    evaluateLanguages(options, 'held-out'),
    evaluateUnseenSentences(options),
  ];
  try {
    parts.push(evaluateAgentPrompts(options, models));
    parts.push(evaluateAgentText({ models, showErrors: options.showErrors }));
    parts.push(evaluateRealText({ corporaDirs: options.corpora, manifest: options.namesManifest, langs: options.langs, showErrors: options.showErrors, models }));
  } finally {
    useNameModel(shipped.model);
  }
  return parts.join('\n');
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
