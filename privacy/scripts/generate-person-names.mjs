#!/usr/bin/env node
// Generates privacy/src/recognizers/person-names.generated.ts, the name lists of the PERSON recognizer:
// given names and surnames of the locales of @faker-js/faker (MIT) whose people live in the UK and the EU, in
// Latin script, sorted into
//  - given names that are no common word: a capitalised word after one is a surname ("Siobhan Kowalczyk"), and
//    one alone is a name, unless it is a rarer word of one of the languages ("Esta");
//  - given names that are also common words in one of the seven languages ("Grace", "Rosa", "Pilar", "Will"):
//    they count only before a known surname ("Grace Hopper") or after a title or greeting;
//  - surnames, and surnames that are also common words ("Young", "Koch"), which never count alone.
// A word is common when its lower-case form is in Debian's English word list (wbritish), or in two of its lists of
// the other six languages (wngerman, wfrench, wspanish, witalian, wpolish, wdutch: `apt-get install` them first):
// the Polish and Dutch lists alone hold rare and inflected forms that happen to spell names ("daniel" is a deer,
// "thomas" an old Dutch word). A surname counts alone only when it is in none of the lists, German nouns
// included ("Bauer", "Liebe" are nouns first). Names that are places count only next to another name; titles, months
// and days are dropped. The output is checked in: the detector loads no package and no word list at run time.
// `npm run gen:names` writes it; `--check` exits 1 when the checked-in file differs.
import { allLocales } from '@faker-js/faker';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'src/recognizers/person-names.generated.ts');

// The UK's and the EU's own languages, and the heritages most common among their people (South Asian, West
// African, Turkish, Balkan, Portuguese, Nordic, Baltic, Central European).
const LOCALES = [
  'en', 'de', 'de_AT', 'de_CH', 'fr', 'fr_BE', 'fr_CH', 'es', 'it', 'pl', 'nl', 'nl_BE', 'pt_PT', 'pt_BR', 'ro',
  'sv', 'da', 'nb_NO', 'fi', 'cs_CZ', 'sk', 'hu', 'lv', 'hr', 'sr_RS_latin', 'tr', 'en_IN', 'yo_NG', 'en_NG',
  'en_GH', 'zu_ZA', 'en_IE', 'en_AU', 'en_CA', 'en_US', 'vi',
];
const ENGLISH = 'british-english';
const OTHER_LANGUAGES = ['ngerman', 'french', 'spanish', 'italian', 'polish', 'dutch'];

// The recognizer's own letters (person.ts): a name is one capitalised word, perhaps double-barrelled.
const NAME = /^(?:O['’]|Mc|D['’])?[A-ZÀ-ÖØ-ÞĀ-Ž][a-zß-öø-ÿā-ž'’]{1,24}(?:-[A-ZÀ-ÖØ-ÞĀ-Ž][a-zß-öø-ÿā-ž'’]{1,24})?$/;
const SINGLE_WORD = /^[A-ZÀ-ÖØ-ÞĀ-Ž][a-zß-öø-ÿā-ž]{1,20}$/;

/** Months, weekdays and other capitalised words of the seven languages that no list may hold. */
const NEVER = new Set(`
January February March April May June July August September October November December Monday Tuesday Wednesday
Thursday Friday Saturday Sunday Januar Februar März Juni Juli Oktober Dezember Montag Dienstag Mittwoch Donnerstag
Freitag Samstag Sonntag Janvier Février Mars Avril Mai Juin Juillet Août Septembre Octobre Novembre Décembre Lundi
Mardi Mercredi Jeudi Vendredi Samedi Dimanche Enero Febrero Marzo Abril Mayo Junio Julio Agosto Septiembre Octubre
Noviembre Diciembre Lunes Martes Miércoles Jueves Viernes Sábado Domingo Gennaio Febbraio Aprile Maggio Giugno
Luglio Settembre Ottobre Dicembre Lunedì Martedì Mercoledì Giovedì Venerdì Sabato Domenica Styczeń Luty Marzec
Kwiecień Maj Czerwiec Lipiec Sierpień Wrzesień Październik Listopad Grudzień Poniedziałek Wtorek Środa Czwartek
Piątek Sobota Niedziela Januari Februari Maart Mei Augustus Maandag Dinsdag Woensdag Donderdag Vrijdag Zaterdag
Zondag Christmas Easter Google Apple Amazon Microsoft London Paris Berlin Madrid Rome Roma Warsaw Amsterdam Dublin
Brussels Vienna Lisbon Prague Milan Florence Lincoln Chester York Devon Kent Jersey Victoria Sydney Orlando
Austin Dallas Denver Phoenix Houston Boston Troy Chad Jordan India China Israel Georgia Kenya Ghana Nigeria Tyler
Admin User Test Null None True False Error Info Debug Warning Node React Angular Ruby Rust Java Python Go Swift
Kotlin Scala Julia Dart Elixir Haskell Perl Crystal Docker Redis Kafka Linux Ubuntu Debian Alpine Jenkins
English British Scottish Welsh Irish German French Spanish Italian Polish Dutch Czech Slovak Hungarian Austrian
Swiss Belgian Danish Swedish Norwegian Finnish Portuguese Greek Romanian Bulgarian Croatian Serbian Turkish
European American Canadian Chinese Japanese Indian Russian Ukrainian Nicosia Valletta Luxembourg Monaco Bern
Herr Herrn Frau Fräulein Monsieur Madame Mademoiselle Señor Señora Señorita Don Doña Signor Signore Signora
Signorina Dottore Dottoressa Pan Pani Panna Meneer Mevrouw Juffrouw Sir Dame Miss Lord Lady Doctor
`.split(/\s+/).filter(Boolean));

/** Names of products and assistants, common in agent prompts: names only before a known surname ("Claude Dupont"). */
const PRODUCTS = new Set(`Claude Alexa Siri Cortana Gemini Copilot Opus Sonnet Haiku Mistral Llama Lua Bard Jasper Cassandra
Travis Luigi Watson Athena Jarvis Hugo Odin Mercedes Porsche Ferrari Bosch Siemens Philips Nestle Heineken Peugeot
Renault Michelin Dell Lenovo Jenkins Kafka Heroku Vercel Netlify Stripe Twilio Sentry Datadog Grafana Kibana Nginx
Apache Tomcat Jetty Flask Django Rails Laravel Symfony Spring Hibernate Maven Gradle Ansible Terraform Vagrant
Consul Vault Nomad Packer Celery Sidekiq Airflow Dagster Prefect Looker Tableau Alteryx Hadoop Spark Hive Presto
Trino Druid Pinot Flink Beam Storm Samza Kinesis Lambda Fargate Aurora Neptune Cosmos Ada Julia`.split(/\s+/));

function wordsOf(locale, part, key) {
  const def = allLocales[locale]?.[part]?.[key];
  if (def === undefined || def === null) return [];
  return Array.isArray(def) ? def : Object.values(def).flat();
}

function lowerCaseWords(list) {
  const words = new Set();
  for (const line of readFileSync(join('/usr/share/dict', list), 'utf8').split('\n')) {
    const w = line.trim();
    if (w !== '' && w === w.toLowerCase()) words.add(w);
  }
  return words;
}

/**
 * Each list read once: `common` holds the words of the English list and those in two of the others (lower case);
 * `listed` every word of every list, and the German list's nouns as written. Products are in both.
 */
function wordSets() {
  const english = lowerCaseWords(ENGLISH);
  const common = new Set(english);
  const listed = new Set(english);
  const seen = new Map();
  for (const list of OTHER_LANGUAGES) {
    for (const w of lowerCaseWords(list)) {
      seen.set(w, (seen.get(w) ?? 0) + 1);
      listed.add(w);
    }
  }
  for (const [w, lists] of seen) if (lists >= 2) common.add(w);
  // German nouns are capitalised, so the German list is read as written too, but a capitalised entry counts only
  // as a noun: one the list also inflects with a plural or case ending ("Bauer", "Bauern"). The list holds
  // people's names as well ("Anna", "Oskar", "Jones"), which have at most a genitive "s".
  const german = new Set(readFileSync('/usr/share/dict/ngerman', 'utf8').split('\n').map((l) => l.trim()));
  const NOUN_ENDINGS = ['e', 'en', 'n', 'er', 'es', 'ern', 'ns'];
  for (const w of german) {
    if (w !== w.toLowerCase() && NOUN_ENDINGS.some((e) => german.has(`${w}${e}`))) listed.add(w);
  }
  for (const p of PRODUCTS) {
    common.add(p.toLowerCase());
    listed.add(p);
  }
  return { common, listed };
}

function places() {
  const out = new Set();
  for (const locale of LOCALES) {
    for (const key of ['city_name', 'country', 'state', 'county']) {
      for (const p of wordsOf(locale, 'location', key)) if (typeof p === 'string' && SINGLE_WORD.test(p)) out.add(p);
    }
  }
  return out;
}

function generate() {
  const { common, listed } = wordSets();
  const placeNames = places();
  const given = new Set();
  const surnames = new Set();
  for (const locale of LOCALES) {
    // Vietnamese given names are syllables ("An", "Anh", "Mai") that read as words elsewhere; its surnames stay.
    if (locale !== 'vi') {
      for (const n of wordsOf(locale, 'person', 'first_name')) if (NAME.test(n) && n.length >= 3) given.add(n);
    }
    for (const n of wordsOf(locale, 'person', 'last_name')) if (NAME.test(n) && n.length >= 2) surnames.add(n);
  }
  const givenNames = [...given].filter((n) => !NEVER.has(n)).sort();
  const surnameList = [...surnames].filter((n) => !NEVER.has(n)).sort();
  const isCommon = (n) => common.has(n.toLowerCase());
  // A place's name ("Austin", "Charlotte", "Taylor", "Martin": towns in faker's American, Canadian and Slovak
  // lists) is still a name before or after another ("Charlotte Taylor"), but not alone ("moved to Austin").
  const isWord = (n) => listed.has(n) || listed.has(n.toLowerCase()) || placeNames.has(n);
  const plain = givenNames.filter((n) => !isCommon(n));
  return {
    plain,
    wordLike: plain.filter(isWord),
    common: givenNames.filter(isCommon),
    surnames: surnameList.filter((n) => !isWord(n)),
    commonSurnames: surnameList.filter(isWord),
  };
}

function render({ plain, wordLike, common, surnames, commonSurnames }) {
  const list = (words) => {
    const lines = [];
    let line = '';
    for (const w of words) {
      if (line.length + w.length + 1 > 116) {
        lines.push(line);
        line = '';
      }
      line = line === '' ? w : `${line} ${w}`;
    }
    if (line !== '') lines.push(line);
    return `\`\n${lines.join('\n')}\n\``;
  };
  return `// Generated by privacy/scripts/generate-person-names.mjs from @faker-js/faker's locale data (MIT) and Debian's
// word lists; do not edit by hand (\`npm run gen:names\`). ${plain.length} given names, ${common.length} given names that
// are also common words, ${surnames.length} surnames, ${commonSurnames.length} surnames that are also common words.

/** Given names that are no common word in the seven languages. */
export const PACKAGE_GIVEN_NAMES = ${list(plain)};

/** Of those, the ones that are a rarer word of one language ("Esta" is Spanish for "this"): never a name alone. */
export const PACKAGE_WORD_LIKE_GIVEN_NAMES = ${list(wordLike)};

/** Given names that are also common words ("Grace", "Rosa", "Pilar"): a name only before a known surname. */
export const PACKAGE_COMMON_WORD_GIVEN_NAMES = ${list(common)};

/** Surnames that are no word of the seven languages: a name even alone. */
export const PACKAGE_SURNAMES = ${list(surnames)};

/** Surnames that are also words ("Young", "Koch", "Blanco"): a surname only after a given name or a title. */
export const PACKAGE_COMMON_WORD_SURNAMES = ${list(commonSurnames)};
`;
}

const text = render(generate());
if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== text) {
    process.stderr.write(`${target} is stale: run npm run gen:names\n`);
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
  process.stdout.write(`wrote ${target}\n`);
}
