// The margins (trainer's units: the tagger's score of its tag over the next best) the detector's rules ask of the
// name tagger before they trust a span, in one place: tagged-names.ts and later-mentions.ts read them, and the
// model builder's tuning command (names-model tune-main.js --tune-margins) measures and sets them on the dev parts
// of the commercial sources only. Why each rule exists is told where it is applied; the values, and the data they
// were set on, are recorded in docs/privacy.md ((p)) and names-model/manifest.json ("margins").

export interface DetectorMargins {
  /** A sentence's first word the tagger is this unsure of is no part of the name ("Can I …"). */
  readonly opening: number;
  /** One word alone opening a sentence ("Steuerliche …", "Mój numer …"), the lists not knowing it. */
  readonly openingWord: number;
  /** Any other lone word the lists do not know ("Pan Wrona, Mój numer…": 7). */
  readonly word: number;
  /** A place or organisation of several words that overrules a list match. */
  readonly veto: number;
  /** A one-word place or organisation that overrules a list match ("Hi, I am Jane (…)" read as LOC at 4). */
  readonly oneWordVeto: number;
  /** A one-word place or organisation that keeps a known surname from a lone mention ("Kowalska": LOC at 17). */
  readonly mentionVeto: number;
  /** A lone word the training text writes in lower case, or a given name that is also a common word ("Grace"). */
  readonly commonWord: number;
  /** A name this sure keeps a short number after it ("b Croft 46") from the house-number rule. */
  readonly houseNumber: number;
  /** A common word opening a longer name ("Frank Schlömer", but "Ieri Bianchi") is cut off below this. */
  readonly openingCommon: number;
  /** A list's neighbour this sure is a name ("Wright und Hendrie"). */
  readonly listNeighbour: number;
  /** A full name this sure has its surname looked for alone elsewhere in the text. */
  readonly sureName: number;
  /** One word alone, in sum over its readings in the text, to be looked for again alone. */
  readonly sureLone: number;
  /** The same for a word the surname lists know: the lists count as evidence ("Scholz … Scholz rief"). */
  readonly sureLoneKnown: number;
  /**
   * A capitalised word after a person's name that the tagger reads as no name by less than this over the name
   * going on is the name going on ("Professor Cres Eastman of the Sydney Institute": O by 2.8); 0 never.
   */
  readonly personGoesOn: number;
}

/** The margins the detector runs with (names-model/manifest.json "margins" records them and their data). */
export const SHIPPED_MARGINS: DetectorMargins = Object.freeze({
  opening: 2,
  openingWord: 25,
  word: 8,
  veto: 4,
  oneWordVeto: 10,
  mentionVeto: 25,
  commonWord: 30,
  houseNumber: 15,
  openingCommon: 10,
  listNeighbour: 20,
  sureName: 15,
  sureLone: 15,
  sureLoneKnown: 10,
  personGoesOn: 6,
});

/** The margins in force: the shipped ones, unless the tuning command set others for a measurement. */
export let margins: DetectorMargins = SHIPPED_MARGINS;

/** Runs the detector with other margins from now on (the tuning command's sweep; never the proxy). */
export function useDetectorMargins(next: DetectorMargins): void {
  margins = next;
}
