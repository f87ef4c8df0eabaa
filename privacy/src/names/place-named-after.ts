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

/** The word right before a position, with a full stop of an abbreviation ("ul.", "im."), up to 24 characters back. */
const WORD_BEFORE_RE = /(?:^|[^\p{L}])(\p{L}{2,20}\.?)[ \t]+$/u;
/** A name's last word that is a street's ("Wittlaan", "Goethestraße", "Keizersgracht"): a capital, then the street word. */
const STREET_SUFFIX_RE = /\p{Lu}\p{Ll}+(?:straat|laan|plein|gracht|kade|singel|dreef|steeg|straße|strasse|allee|gasse|platz)$/u;
const FIRST_WORD_RE = /^\S+/u;

/** Whether the name at [start, end) names a place or an institution after a person rather than the person. */
export function namesAPlace(text: string, start: number, end: number): boolean {
  const before = WORD_BEFORE_RE.exec(text.slice(Math.max(0, start - 24), start))?.[1];
  if (before !== undefined && PLACE_BEFORE.has(before)) return true;
  const value = text.slice(start, end);
  const first = FIRST_WORD_RE.exec(value)?.[0];
  if (first !== undefined && first !== value && PLACE_OPENING.has(first)) return true;
  return STREET_SUFFIX_RE.test(value.slice(value.lastIndexOf(' ') + 1));
}
