// Polish declines place names ("w Meksyku", "z Kirgistanem", "z Mołdawią", "w Krakowie", "do Łodzi"), and the
// tagger's misses in KPWr are those forms. A dictionary of forms (SJP.PL's wpolish) holds them but does not say
// which capitalised forms are places; a gazetteer says which names are places but holds the nominative. So a form
// of the dictionary is a place form when taking a case ending off it, undoing the stem's alternation, and putting
// a nominative ending on gives a place name of the gazetteer (docs/privacy.md (v)).

/** Case endings of the oblique forms of nouns, longest tried first ('' for a form equal to its stem). */
const FORM_ENDINGS = ['ami', 'ach', 'owi', 'iem', 'em', 'om', 'ów', 'ie', 'ii', 'ią', 'ię', 'ji', 'ją', 'ję', 'iu', 'a', 'u', 'y', 'i', 'e', 'ę', 'ą', 'o', ''];

/** Nominative endings the stem may carry in the gazetteer ("Meksyk", "Polska", "Opole", "Mołdawia"). */
const NOMINATIVE_ENDINGS = ['', 'a', 'o', 'e', 'y', 'i', 'ia'];

/** The stem as the nominative writes it: softening before -e/-i undone, "ó" raised to "o" in oblique cases restored. */
function nominativeStems(stem: string): string[] {
  const out = new Set([stem]);
  const hard: [string, string][] = [
    ['sc', 'sk'], // Polsce → Polska
    ['c', 'k'], // Ameryce → Ameryka
    ['dz', 'g'], // Pradze → Praga
    ['rz', 'r'], // Białorusi ← no; Zgierzu keeps rz: both kept
    ['dzi', 'dź'], // Łodzi → Łódź (with ó below)
    ['ni', 'ń'], // Poznania → Poznań
    ['si', 'ś'],
    ['ci', 'ć'],
    ['zi', 'ź'],
  ];
  for (const [from, to] of hard) if (stem.endsWith(from)) out.add(stem.slice(0, -from.length) + to);
  // The fleeting e of the nominative ("Marek" → "Marka", "Sopot" keeps it): put back between two final consonants.
  if (/[^aeiouyąęó]{2}$/.test(stem)) out.add(`${stem.slice(0, -1)}e${stem.slice(-1)}`);
  // "Kraków" → "Krakowa", "Łódź" → "Łodzi": the nominative's "ó" in the last syllable is "o" elsewhere.
  for (const s of [...out]) {
    const at = s.lastIndexOf('o');
    if (at >= 0 && at >= s.length - 4) out.add(`${s.slice(0, at)}ó${s.slice(at + 1)}`);
  }
  return [...out];
}

/**
 * The forms (as written) of `forms` that decline a name of `bases` (lower-cased place names), the name itself
 * included when the dictionary writes it, unless it also declines a name of `people` (lower-cased given names and
 * surnames). A form is tried only if it is capitalised; a base shorter than four letters is not declined (too many
 * forms of other words end alike).
 */
export function polishPlaceForms(bases: ReadonlySet<string>, forms: Iterable<string>, people: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (const form of forms) {
    const first = form.charAt(0);
    if (first === first.toLowerCase()) continue;
    const lower = form.toLowerCase();
    // A form that also declines a person's name ("Marka": Marek's genitive and the town Marka) is no evidence.
    if (declines(bases, lower) && !declines(people, lower)) out.push(form);
  }
  return out;
}

function declines(bases: ReadonlySet<string>, lower: string): boolean {
  for (const ending of FORM_ENDINGS) {
    if (!lower.endsWith(ending)) continue;
    const stem = lower.slice(0, lower.length - ending.length);
    if (stem.length < 3) continue;
    for (const s of nominativeStems(stem)) {
      for (const n of NOMINATIVE_ENDINGS) {
        const base = s + n;
        if (base.length >= 4 && bases.has(base)) return true;
      }
    }
  }
  return false;
}
