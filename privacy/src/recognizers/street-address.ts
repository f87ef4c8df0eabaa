import { LETTERS, UPPER_CLASS } from '../latin-letters.js';
import { RANK_FORMAT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// A house number with its street, written the way each country writes it. A street named without a number
// ("Baker Street", "la rue de Rivoli") is a place, not an address, and is never reported; the postcode and the
// town are left to their own types (UK_POSTCODE). The span is the flat prefix, the number and the street.
//
// Every pattern needs a street word from a closed list (Road, rue, Straße, via, ul., …) next to a capitalised
// name and a number, so code, logs and prose that merely contain numbers and capitalised words do not match.
// Quantifiers are bounded and the alternatives inside a repetition cannot consume the same text two ways, so
// each scan is linear; the recognizer runs only in the windows around digits (digit-windows.ts).

// Latin-script letter classes (latin-letters.ts) rather than \p{Lu}/\p{L}: without the u flag V8 scans this
// regex four times faster (a 100 KB agent prompt: 10.7 → 2.7 ms).
const UPPER = UPPER_CLASS;

/** A capitalised name word: Acacia, O'Brien, Saint-Germain, Marszałkowska, Vittorio, 3rd is not one. */
const NAME = String.raw`${UPPER}[${LETTERS}'’]*(?:-[${LETTERS}][${LETTERS}'’]*){0,3}`;
/** A house number: 12, 12a, 12-14, 12A. */
const HOUSE = String.raw`\d{1,4}(?:[a-zA-Z](?![${LETTERS}\d]))?(?:\s?[-–]\s?\d{1,4}[a-zA-Z]?)?`;

const UK_TYPES = [
  'Street', 'Road', 'Avenue', 'Lane', 'Drive', 'Close', 'Crescent', 'Way', 'Place', 'Court', 'Square', 'Terrace',
  'Gardens', 'Grove', 'Hill', 'Park', 'Row', 'Walk', 'Mews', 'Parade', 'Green', 'Rise', 'Boulevard', 'Gate', 'Wharf',
  'Quay', 'Embankment', 'View', 'Vale',
].join('|');
/** Abbreviated street words, which may carry a full stop ("Acacia Ave."); a full word's stop ends the sentence. */
const UK_ABBREVIATIONS = ['St', 'Rd', 'Ave', 'Ln', 'Dr', 'Cres', 'Pl', 'Ct', 'Sq'].join('|');

/** UK and Irish: [Flat 3, ]12a Acacia Avenue. */
const UK = String.raw`(?:(?:Flat|Apartment|Apt\.?|Unit|Suite|Studio)\s\d{1,4}[A-Za-z]?,?\s)?${HOUSE},?\s(?:(?:${NAME}\s){1,3}(?:(?:${UK_TYPES})\b|(?:${UK_ABBREVIATIONS})\b\.?)|(?:Kingsway|Broadway|Parkway|Strand)\b(?=[ \t]*(?:[,\n]|$)))`;

/** French: 12 bis, rue de la Paix; 3 avenue Victor Hugo. */
const FR = String.raw`\d{1,4}(?:\s?(?:bis|ter|quater|[A-D])\b)?,?\s(?:[Rr]ue|[Aa]venue|[Aa]v\.|[Bb]oulevard|[Bb]d|[Pp]lace|[Ii]mpasse|[Aa]llée|[Cc]hemin|[Qq]uai|[Cc]ours|[Rr]oute|[Ss]quare|[Pp]assage|[Ff]aubourg)\s(?:(?:de\sla|de\sl['’]|du|des|de|d['’]|la|le|les|l['’])\s?)?${NAME}(?:\s(?:de\s|du\s|des\s)?${NAME}){0,3}`;

/**
 * A compound ending in a street word ("Hauptstraße", "Bahnhofstr.", "Friedrich-Ebert-Straße"): the word is taken
 * whole (a lookahead and a backreference, so it is never backtracked into) and its ending checked behind it. A
 * lazy scan for the ending from every capital had cost 10 ms on a 100 KB agent prompt, most of the detector's time.
 */
function compoundEndingIn(group: string, endings: string, dotted = ''): string {
  const word = String.raw`(?=(?<${group}>${UPPER}[${LETTERS}-]{0,40}))\k<${group}>`;
  return dotted === '' ? `${word}(?<=${endings})` : String.raw`${word}(?:(?<=${dotted})\.|(?<=${endings}))`;
}
const DE_COMPOUND = compoundEndingIn(
  'de',
  '[Ss]traße|[Ss]trasse|[Ww]eg|[Aa]llee|[Pp]latz|[Gg]asse|[Dd]amm|[Uu]fer|[Cc]haussee|[Ss]teig|[Pp]fad',
  '[Ss]tr',
);

const DE_WORD = 'Straße|Strasse|Str\\.|Weg|Allee|Platz|Gasse|Damm|Ufer|Chaussee';
// "Im", "Zum", "In der" are left out: "Im Sprint 12", "Zum Beispiel 3" are prose far more often than streets.
const DE_PREPOSITION = '(?:Am|An\\sder|An\\sden|Auf\\sder|Unter\\sden|Hinter\\sder)';
const DE_NOT_A_STREET =
  '(?:Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag|Wochenende|Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember|Jahre?|Anfang|Ende|Morgen|Abend|Tag|Mittag|Wochentag|Frühling|Sommer|Herbst|Winter|Quartal|Server|Rechner|Ziel|Platz)\\b';
/**
 * German, Austrian and Swiss: Hauptstraße 5, Berliner Str. 12a, and streets named with a preposition ("Am Markt 4",
 * "Unter den Linden 77"), unless the word after it is a day, a month or a time ("Am Montag 3 Termine").
 */
const DE = String.raw`(?:(?:${NAME}\s)?(?:${DE_COMPOUND}|(?:${DE_WORD}))|${DE_PREPOSITION}\s(?!${DE_NOT_A_STREET})${NAME}(?=\s\d{1,3}[a-z]?(?!\d)))\s?${HOUSE}`;

/** Dutch and Flemish: Keizersgracht 123-II, Damstraat 5 hs, Van Baerlestraat 12A. */
const NL_COMPOUND = compoundEndingIn('nl', 'straat|laan|gracht|plein|kade|dijk|singel|steeg|dreef');
const NL = String.raw`(?:[Vv]an\s(?:de[rn]?\s)?)?${NL_COMPOUND}\s\d{1,4}(?:[-\s]?(?:hs|bis|I{1,3}|[A-Za-z])(?![${LETTERS}\d]))?`;

/** Polish: ul. Marszałkowska 10/12 m. 5; al. Jana Pawła II 23. */
const PL = String.raw`(?:ul\.|ulica|al\.|aleja|pl\.|plac|os\.|osiedle)\s(?:${NAME}\s|I{1,3}\s|[1-3]\s?Maja\s){1,4}\d{1,4}[A-Za-z]?(?:\s?\/\s?\d{1,4}[A-Za-z]?)?(?:,?\s(?:m\.|lok\.)\s?\d{1,4})?`;

/**
 * Italian: Via Roma 10, Corso Vittorio Emanuele II, 21, Piazza della Signoria 5/A. A lower-case "via" only after
 * "in" or a colon ("abito in via Roma 10"): in English text "via Redis 7" is a preposition.
 */
const IT = String.raw`(?:via(?<=(?:\bin|:)\svia)|Via|[Vv]iale|[Pp]iazza|P\.zza|[Pp]iazzale|[Cc]orso|C\.so|[Ll]argo|[Vv]icolo|[Ss]trada|[Ll]ungomare|[Ll]ungarno|[Cc]ontrada|[Bb]orgo)\s(?:(?:del|della|dello|dei|degli|delle|di|d['’]|XX|IV|V)\s)?(?:${NAME}\s|(?:del|della|dei|di|II|III|IV|XXIV)\s){0,4}${NAME},?\s(?:n\.\s?)?\d{1,4}(?:\s?\/\s?[A-Za-z0-9]{1,3}|[A-Za-z](?![${LETTERS}\d]))?`;

/** Spanish and Catalan: C/ Mayor 5, Calle de Alcalá, 23, 2º B; Avda. de la Constitución 12. */
const ES = String.raw`(?:C\/|[Cc]alle|[Aa]vda\.|[Aa]venida|[Pp]aseo|Pº|[Pp]laza|Pza\.|[Rr]onda|[Cc]arrer|[Cc]amino|[Tt]ravesía)\s?(?:(?:de\sla|de\slos|de\slas|del|de)\s)?(?:${NAME}\s){0,3}${NAME},?\s(?:n[ºo°]\.?\s?)?\d{1,4}(?:,\s?\d{1,2}[ºª°]\s?[A-Za-z]?(?![${LETTERS}\d]))?`;

const ADDRESS_RE = new RegExp(String.raw`(?<![${LETTERS}\d])(?:${UK}|${FR}|${DE}|${NL}|${PL}|${IT}|${ES})(?![${LETTERS}\d])`, 'g');

function find(text: string, out: Candidate[]): void {
  ADDRESS_RE.lastIndex = 0;
  for (let m = ADDRESS_RE.exec(text); m !== null; m = ADDRESS_RE.exec(text)) {
    out.push({ type: 'STREET_ADDRESS', start: m.index, end: m.index + m[0].length, rank: RANK_FORMAT });
  }
}

export const streetAddressRecognizer: Recognizer = { name: 'street-address', find };
