import { GIVEN_NAME_SET, SURNAME_SET } from '../recognizers/person-words.js';

// Streets, squares, schools, theatres, stadiums, foundations, prizes and storms named after people ("Stadio
// Giuseppe Meazza", "Liceo Giuseppe Parini", "Teatr im. Wandy Siemaszkowej", "Johan de Wittlaan", "Sturmtief
// Sabine", "borrasca Filomena"): the name there is the place's, the institution's or the storm's, not a person's. person-words.ts PLACE_WORDS holds the English words and the
// street words the list rules share; these are the other languages' words for places that are named after
// someone. In the commercial training sources a capitalised word these rules apply to is inside a place or
// organisation 663 times, inside a person's name 10 times (docs/privacy.md (z)).

/** Written capitalised: before a name, or opening the tagger's span. */
const CAPITALISED = `
Stadion Schule Gymnasium Realschule Grundschule Universität Hochschule Stiftung Kirche Preis Brücke Gasse Ufer
Kaserne Klinik Klinikum Schouwburg Universiteit Hogeschool Stichting Kerk Prijs Brug Kazerne Gasthuis Laan Gracht
Kade Singel Boulevard Lycée Collège École Ecole Théâtre Stade Fondation Musée Église Eglise Prix Palais Impasse
Allée Faubourg Institut Université Pont Corso Viale Vicolo Largo Lungomare Lungotevere Teatro Stadio Liceo
Istituto Università Scuola Fondazione Museo Chiesa Basilica Palazzo Premio Policlinico Collegio Galleria Ponte
Parco Autodromo Avenida Avda Paseo Estadio Colegio Instituto Universidad Fundación Iglesia Palacio Parque Puente
Glorieta Polideportivo Pabellón Praça Estádio Escola Colégio Prémio Prêmio Fundação Igreja Museu Travessa
Universidade Palácio Ulica Aleja Aleje Plac Osiedle Rondo Teatr Teatrze Teatru Teatrem Szkoła Szkoły Szkole
Szkołę Liceum Uniwersytet Uniwersytetu Nagroda Nagrody Nagrodę Most Fundacja Fundacji Muzeum Kościół Kościoła
Hurricane Typhoon Cyclone Storm Orkan Sturmtief Tief Hoch Huracán Tormenta Borrasca Uragano Ciclone Ouragan Tempête
Orkaan Huragan Furacão Tempestade
`;

/** As running text writes them in lower case ("in viale Giulio Cesare", "boulevard Haussmann", "ul. Jana Pawła"). */
const LOWER_CASE = `
via viale corso piazza largo vicolo lungomare lungotevere teatro stadio liceo istituto museo palazzo premio rue avenue
boulevard place quai impasse allée faubourg
lycée collège école théâtre stade musée église fondation prix calle avenida paseo plaza glorieta barrio estadio
colegio rua praça estádio
travessa ulica aleja plac osiedle rondo ul. al. pl. os. im. hurricane typhoon cyclone huracán tormenta borrasca
uragano ciclone ouragan tempête orkaan huragan orkan furacão tempestade
`;

const words = (list: string): string[] => list.split(/\s+/).filter((w) => w !== '');
/** Not a word the name lists know: "Villa", "Ponte" and "Puente" are surnames too. */
const notAName = (w: string): boolean => !GIVEN_NAME_SET.has(w) && !SURNAME_SET.has(w);
const PLACE_BEFORE: ReadonlySet<string> = new Set([...words(CAPITALISED), ...words(LOWER_CASE)].filter(notAName));
const PLACE_OPENING: ReadonlySet<string> = new Set(words(CAPITALISED).filter(notAName));

/**
 * An institution or a place named with "of" and what follows: "University of Leeds", "Bank of England", "Duchy of
 * Cornwall", "Université de Lyon", "Universität zu Köln". The word after the preposition is the institution's or the
 * place's name, even where it is a surname too ("University of Warwick").
 */
const INSTITUTION_OF_RE =
  /(?:^|[^\p{L}])(?:University|College|Institute|Academy|School|Museum|Bank|Church|Cathedral|Diocese|Archdiocese|Duchy|Kingdom|Republic|Principality|Province|County|City|Port|Isle|Gulf|Bay|Cape|Ministry|Parliament|Université|Universität|Universidad|Università|Universiteit|Uniwersytet|Institut|Instituto|Istituto|Académie|Academia|Accademia)[ \t]+(?:of|de|de la|del|di|della|von|zu|van|des|du)(?:[ \t]+the)?[ \t]+$/u;

/** The word right before a position, with a full stop of an abbreviation ("ul.", "im."), up to 24 characters back. */
const WORD_BEFORE_RE = /(?:^|[^\p{L}])(\p{L}{2,20}\.?)[ \t]+$/u;
/** A name's last word that is a street's ("Wittlaan", "Goethestraße", "Keizersgracht"): a capital, then the street word. */
const STREET_SUFFIX_RE = /\p{Lu}\p{Ll}+(?:straat|laan|plein|gracht|kade|singel|dreef|steeg|straße|strasse|allee|gasse|platz)$/u;
const FIRST_WORD_RE = /^\S+/u;

/** Whether the name at [start, end) names a place or an institution after a person rather than the person. */
export function namesAPlace(text: string, start: number, end: number): boolean {
  const before = WORD_BEFORE_RE.exec(text.slice(Math.max(0, start - 24), start))?.[1];
  if (before !== undefined && PLACE_BEFORE.has(before)) return true;
  if (INSTITUTION_OF_RE.test(text.slice(Math.max(0, start - 32), start))) return true;
  const value = text.slice(start, end);
  const first = FIRST_WORD_RE.exec(value)?.[0];
  if (first !== undefined && first !== value && PLACE_OPENING.has(first)) return true;
  return STREET_SUFFIX_RE.test(value.slice(value.lastIndexOf(' ') + 1));
}

// Terms named after people: laws, algorithms, measures, theorems ("Shannon entropy", "Dijkstra's algorithm",
// "algorithme de Dijkstra", "Dijkstra-Algorithmus"): the word there names the term, not a person. One word alone:
// a full name before a term ("Claude Shannon's entropy") is still the person's. Not Polish: its labelled text
// (KPWr) marks the genitive in "twierdzenia Eulera" as a person, and "prawa Kowalskiego" are his rights.

/** After the name, in lower case (English): "Shannon entropy", "Amdahl's law". */
const TERMS_AFTER = `
algorithm algorithms entropy distance distances transformation curve curves law laws number numbers theorem lemma
conjecture principle constant equation equations function functions distribution method formula notation machine
machines tree trees heap hashing encoding series matrix integral coefficient correlation interpolation polynomial
polynomials inequality criterion estimator noise completeness
`;
/**
 * Terms that are also verbs: after a given name they are the verb ("Have Anna test it", "Let Mark code the
 * form", "Give Jan space"), after another word the term ("Turing test", "Bloom filter", "Gray code").
 */
const VERB_TERMS_AFTER = 'test tests code codes filter filters transform transforms chain chains index bound complete space spaces';
/** Before the name, with its preposition ("algorithme de", "algoritmo di", "Algorithmus von", "algoritme van"). */
const TERMS_BEFORE = `
algorithme algoritmo algoritme algorithmus entropie entropía entropia loi ley legge wet gesetz théorème teorema
stelling satz distance distancia distanza filtre filtro transformée transformada trasformata
transformatie transformation chaîne cadena catena keten kette machine máquina macchina maschine méthode método
metodo methode constante costante konstante fonction función funzione functie funktion distribution distribución
distribuzione verdeling verteilung courbe curva kromme kurve codage codificación codifica codering kodierung
principe principio prinzip équation ecuación equazione vergelijking gleichung conjecture conjetura congettura
vermoeden vermutung
`;

const termAfterRe = (list: string): RegExp => new RegExp(`^(?:['’]s)?[ \\t]+(?:${words(list).join('|')})(?![\\p{L}\\p{N}_])`, 'u');
const TERM_AFTER_RE = termAfterRe(TERMS_AFTER);
const VERB_TERM_AFTER_RE = termAfterRe(VERB_TERMS_AFTER);
const TERM_JOINED_AFTER_RE = /^-(?:Algorithmus|Entropie|Verteilung|Filter|Transformation|Kette|Test|Zahl|Konstante|Gleichung|Funktion|Kurve|Kodierung|Prinzip|Vermutung|Maschine|Methode|complete)(?![\p{L}\p{N}_])/u;
const TERM_BEFORE_RE = new RegExp(
  `(?:^|[^\\p{L}])(?:${words(TERMS_BEFORE).join('|')})[ \\t]+(?:de|di|del|della|van|von|des|der)[ \\t]+$`,
  'iu',
);

/** Whether the one word at [start, end) names a law, an algorithm or a measure after a person rather than the person. */
export function namesATerm(text: string, start: number, end: number): boolean {
  const word = text.slice(start, end);
  if (/\s/.test(word)) return false;
  const after = text.slice(end, end + 24);
  if (TERM_AFTER_RE.test(after) || TERM_JOINED_AFTER_RE.test(after)) return true;
  if (!GIVEN_NAME_SET.has(word) && VERB_TERM_AFTER_RE.test(after)) return true;
  return TERM_BEFORE_RE.test(text.slice(Math.max(0, start - 32), start));
}
