import {
  PACKAGE_COMMON_WORD_GIVEN_NAMES,
  PACKAGE_COMMON_WORD_SURNAMES,
  PACKAGE_GIVEN_NAMES,
  PACKAGE_SURNAMES,
  PACKAGE_WORD_LIKE_GIVEN_NAMES,
} from './person-names.generated.js';

// Word lists of the PERSON recognizer. The generated lists (person-names.generated.ts, from @faker-js/faker's
// locale data) hold some twelve thousand given names and as many surnames of the people of the UK and the EU; the
// list below, written for this project, adds names those locales lack (Irish, Welsh, Scottish, West African,
// South Asian, Arabic) and is trusted over the generated split: a name in it is never a common word.

const GIVEN_NAMES = `
Aaliyah Aarav Abdul Abdullah Abigail Adaeze Adam Adebayo Adeola Adrian Adriana Agata Agnieszka Ahmad Ahmed Aidan
Aileen Aisha Aislinn Ajay Akash Alastair Aleksandra Alessandra Alessandro Alessia Alexander Alexandra Alexandre
Alexei Alfie Alice Alicia Alina Alistair Amaia Amara Amelia Amélie Amina Amir Amit Amy Ana Anastasia Andrea Andreas
Andrei Andrzej Aneta Angela Angelika Anja Anke Ann Anna Anne Annette Anouk Anthony Antoine Antonio Anya Aoife Archie
Arjun Arnaud Arne Arthur Asha Ashok Astrid Aurélie Ayesha Aylin Bartosz Bastian Beata Beatriz Bernard Bernd Bethan
Bianca Birgit Björn Bogdan Brendan Bridget Bronwen Caitlin Callum Camille Carla Carlos Carmen Caroline Catalina
Catherine Cathal Cecilia Cédric Charlotte Chiara Chidi Chinedu Chioma Chloé Chloe Christian Christina Christine
Christoph Christophe Ciara Ciarán Claire Clara Claudia Clément Colm Connor Conor Cristina Cristian Dagmar Daniel
Daniela Daniele Danuta Dariusz Darragh David Davide Declan Deepak Deirdre Denis Dermot Diana Diego Dieter Dimitri
Dirk Dominik Dominika Dorota Dylan Edward Eilidh Eimear Elena Eleanor Elif Elisa Elisabeth Elizabeth Elke Ella Ellie
Emeka Emil Emily Emma Emmanuel Emre Enrique Enzo Erik Esra Esther Étienne Eugenia Ewa Ewan Fabian Fabienne Fatima
Fatma Federica Federico Felix Femi Fenna Fernando Fiona Fionnuala Florian Folake Francesca Francesco Francisco
François Françoise Frederik Freya Friedrich Funmilayo Gabriel Gabriela Gabriele Gareth Georg George Gerhard Giorgia
Giorgio Giovanni Girish Giulia Giulio Giuseppe Grzegorz Guillaume Gunther Gustavo Günter Gwen Hamza Hannah Hans
Harriet Harry Harvinder Hassan Heike Heinrich Helena Helga Hélène Hendrik Henrik Hiroshi Hussein Iain Ian
Ibrahim Ifeoma Ignacio Igor Ilse Imogen Inés Ines Ingrid Ioana  Irene Isabel Isabella Isabelle Isla Ismail Ivan
Jakub Jamal James Jan Jana Janet Janina Janusz Javier Jennifer Jens Jeroen Jessica Joanna Joaquín Johan Johann Johanna
John Jonas Jonathan Jorge José Josef Joseph Joshua Juan Judith Julien Juliette Jürgen Justyna Kai Kamil Karen Karin
Karol Karolina Kasia Katarzyna Katharina Kathleen Kavita Kayode Kazimierz Kemal Kenji Kerstin Kevin Khadija Kieran
Klaus Krishna Krzysztof Kwame Kwabena Lars Laura Lauren Laurent Lea Leila Lena Leon Leonie Lewis Liam Lieke Lina
Lisa Lorenzo Louis Louise Luca Lucas Lucía Lucy Ludovic Ludwig Luis Luisa Lukas Łukasz Maciej Magdalena Maia Maja
Małgorzata Manon Manuel Manuela Marcel Marco Marek Margaret Margarethe María Maria Marie Mariusz Marta Martina Mateo
Mateusz Matteo Matthias Maximilian Mehmet Mei Melanie Michael Michał Michel Michelle Miguel Mikołaj
Milena Mohamed Mohammed Monika Muhammad Mustafa Nadia Naomi Natalia Nathalie Nathan Neha Niamh Nicola Nicolas
Nikolai Nils Nina Noah Noémie Nuala Nuno Obinna Océane Oisín Olga Oliver Olivia Oluwaseun Omar Orla Oskar Owen
Pablo Padraig Paolo  Patricia Patrick Paul Paula Paulina Pedro Peter Philipp Philippe Pierre Pieter Piotr
Priya Rafael Rafał Rahul Rajesh Ramón Raphael Rashid Rebecca Reza Rhiannon Rhys Ricardo Richard Robert Roberta
Roberto Rodrigo Rohan Roisín Rosa Rossella Ruairí Rui Rutger Ryan Sabine Sadia Samir Samuel Sandra Sanjay 
Sara Sarah Saskia Sebastian Sebastián Seamus Sean Seán Sergei Sergio Shauna Shreya Silvia Simone Sinéad Siobhan
Siobhán Sofia Sofía Sophie Stefan Stefania Stefano Stephen Steven Susanne Sven Swati Szymon Tadeusz Tamara Tanvir
Thabo Theo Thibault Thomas Tiago Tobias Tomasz Torsten Tunde Ulrich Ulrike Ursula Valentina Valeria Vanessa Vera
Vijay Vincent Virginie Vivek Wei Wiebke Wiktoria Wilhelm Willem Wojciech Wolfgang Xavier Xin Yasmin Yusuf Yvonne
Zainab Zara Zbigniew Zeynep Zofia Zoe Zoë Zuzanna Mary Jane Tom Ben Joe Dan Jim Tim Kate Katie Jack Sophia
`;

function words(list: string): string[] {
  return list.split(/\s+/).filter((w) => w !== '');
}

const HAND_GIVEN_NAMES = new Set(words(GIVEN_NAMES));

/** Given names that are no common word: a capitalised word after one is a surname. */
export const GIVEN_NAME_SET: ReadonlySet<string> = new Set([...HAND_GIVEN_NAMES, ...words(PACKAGE_GIVEN_NAMES)]);

/** Given names that are also a rarer word of one language ("Esta"): a name with a surname, never alone. */
export const WORD_LIKE_GIVEN_NAME_SET: ReadonlySet<string> = new Set(words(PACKAGE_WORD_LIKE_GIVEN_NAMES));

/** Given names that are also common words ("Grace", "Rosa", "Will"): a name only before a known surname. */
export const COMMON_WORD_GIVEN_NAME_SET: ReadonlySet<string> = new Set(
  words(PACKAGE_COMMON_WORD_GIVEN_NAMES).filter((w) => !HAND_GIVEN_NAMES.has(w)),
);

/** Surnames that are no common word: a name even alone ("Kaczmarek was influenced by…"). */
export const LONE_SURNAME_SET: ReadonlySet<string> = new Set(words(PACKAGE_SURNAMES));

/** Every known surname, common words included ("Young"): a name after a given name. */
export const SURNAME_SET: ReadonlySet<string> = new Set([...LONE_SURNAME_SET, ...words(PACKAGE_COMMON_WORD_SURNAMES)]);

/** Whether a name list knows `word` as a given name or a surname (lone surnames are among the surnames). */
export function isListedName(word: string): boolean {
  return GIVEN_NAME_SET.has(word) || SURNAME_SET.has(word);
}

/** Honorifics in the seven languages (literal text); a capitalised name after one is a person's. */
export const TITLES = [
  'Mr', 'Mrs', 'Ms', 'Miss', 'Mx', 'Dr', 'Prof', 'Sir', 'Dame', 'Herr', 'Herrn', 'Frau', 'M.', 'Mme', 'Mlle', 'Monsieur',
  'Madame', 'Sr', 'Sra', 'Srta', 'Señor', 'Señora', 'Doña', 'Sig', 'Sig.ra', 'Sig.na', 'Signor', 'Signora',
  'Dott', 'Dott.ssa', 'Pan', 'Pani', 'Panie', 'dr', 'Dhr', 'dhr', 'Mevr', 'mevr', 'Mevrouw', 'Meneer',
];

/**
 * The same honorifics as running text writes them in Romance languages, Dutch and Polish: in lower case ("il
 * signor Rossi", "zei meneer Jansen", "pani Nowak"), and declined in Polish ("z panem Kowalskim", "do pana
 * Nowaka"). English and German never write theirs so ("pan" and "don" are English words). For the title rule
 * only: the name tagger's features read TITLE_SET, and the shipped model was trained on that.
 */
export const RUNNING_TEXT_TITLES = [
  'monsieur', 'madame', 'mademoiselle', 'señor', 'señora', 'señorita', 'signor', 'signora', 'signorina', 'sig',
  'sig.ra', 'dott', 'dott.ssa', 'meneer', 'mevrouw', 'pani', 'panią', 'panem', 'pana', 'panu', 'panie',
];

/**
 * Titles running text abbreviates, always with their full stop: Polish "prof. Szyszko", "ks. Subocz", "gen.
 * Bielski", "inż. Prauss", "kard. Dziwisz"; Italian "ing.", "avv.", "arch."; Spanish "lic."; Dutch "ir.", "drs.",
 * "mr."; also capitalised. Without the stop several are words ("gen", "ing", "mr"): never matched so. In the
 * commercial training text a capitalised word after "prof.", "ks.", "gen.", "inż.", "bp." or "kard." opens a
 * person's name 29 times in 30. For the title rule only, like RUNNING_TEXT_TITLES (the tagger's features read
 * TITLE_SET).
 */
export const ABBREVIATED_TITLES = ['prof', 'ks', 'gen', 'inż', 'kard', 'bp', 'abp', 'płk', 'mjr', 'kpt', 'mec', 'ing', 'avv', 'arch', 'lic', 'ir', 'drs', 'mr'];

/**
 * A minister's office before a name in running text, as the seven languages write it ("il ministro Lombardi",
 * "der Minister Lauterbach", "le ministre Le Maire", "minister Hoekstra"): for the title rule, like
 * RUNNING_TEXT_TITLES. Not other offices: "Präsident Frankreichs", "prezydent Polski" name a country.
 */
export const RUNNING_TEXT_OFFICES = ['ministro', 'ministra', 'ministre', 'minister', 'Minister', 'Ministerin', 'Ministro', 'Ministra', 'Ministre'];

/**
 * Particles a surname may open with right after a title ("Mevrouw de Vries", "Frau von der Leyen", "Dr. van Dijk");
 * not articles ("Monsieur le Maire" is an office).
 */
export const TITLE_PARTICLES = ['van der', 'van den', 'van de', 'van', 'von der', 'von', 'de la', 'del', 'de', 'di', 'da', 'du', 'dos', 'das', 'ter', 'ten', 'zu'];

/** The titles without their full stops ("Dr", "Sig.ra"): a word as the name tagger's tokens write it. */
export const TITLE_SET: ReadonlySet<string> = new Set(TITLES.map((t) => t.replace(/\.$/, '')));

/**
 * Offices a title addresses without a name ("Mr President", "Signor Presidente", "Herr Bundeskanzler", "Pani
 * Premier"): after a title, one of these is no name. Not the ones that are given names or surnames too ("Frau
 * Richter", "Mrs Judge", "Primo Levi", "Mr Speaker"); those open an office only before one of these
 * (OFFICE_MODIFIERS: "Primo Ministro", "Prime Minister").
 */
export const OFFICES: ReadonlySet<string> = new Set(`
President Presidente Presidenta Präsident Präsidentin Président Présidente Prezydent Prezydencie Voorzitter
Premier Chairman Chairwoman Minister Ministerin Ministre Ministro Ministra Ministrze Kanzlerin Bundeskanzler
Bundeskanzlerin Bürgermeister Bürgermeisterin Maire Sindaco Sindaca Alcalde Alcaldesa Burgemeester Burmistrz
Marszałek Ambassador Botschafter Ambassadeur Ambasciatore Embajador Ambasador Secretary Senatore Senador Senatorze
Governatore Gobernador Professor Professore Profesor Profesorze Doktor Dottore Docteur Direktor Directeur
Direttore Giudice Sędzia Kollege Kollegin Collega Kolego Onorevole
`.split(/\s+/).filter((w) => w !== ''));

/** Words that open an office only before one of OFFICES ("Prime Minister", "Primo Ministro", "Vice President"). */
export const OFFICE_MODIFIERS: ReadonlySet<string> = new Set(['Prime', 'Primo', 'Primer', 'Premier', 'Vice', 'Deputy', 'Chief', 'Lord', 'Erster', 'Erste']);

/** Greetings after which a capitalised word and a comma (or the line's end) name the reader. */
const GREETINGS = [
  'Dear', 'Hi', 'Hello', 'Hey', 'Morning', 'Good morning', 'Good afternoon', 'Good evening', 'Hallo', 'Liebe',
  'Lieber', 'Sehr geehrte', 'Sehr geehrter', 'Guten Morgen', 'Guten Tag', 'Guten Abend', 'Moin', 'Servus',
  'Bonjour', 'Bonsoir', 'Salut', 'Coucou', 'Cher', 'Chère', 'Hola', 'Buenos días', 'Buenos dias', 'Buenas tardes',
  'Buenas noches', 'Buenas', 'Estimado', 'Estimada', 'Querido', 'Querida', 'Ciao', 'Salve', 'Caro', 'Cara',
  'Gentile', 'Buongiorno', 'Buonasera', 'Cześć', 'Witaj', 'Witam', 'Dzień dobry', 'Dobry wieczór', 'Szanowny Panie',
  'Szanowna Pani', 'Beste', 'Hoi', 'Goedemorgen', 'Goedemiddag', 'Goedenavond', 'Geachte',
];

/** Each greeting as written and, if longer, with every word capitalised ("Buenas Tardes", "Good Morning"). */
export const GREETING_FORMS: readonly string[] = [
  ...new Set(GREETINGS.flatMap((g) => [g, g.replace(/(^|\s)(\p{Ll})/gu, (_, space: string, c: string) => space + c.toUpperCase())])),
];

/** Sign-offs after which the next line begins with the writer's name. */
export const SIGN_OFFS = [
  'Regards', 'Kind regards', 'Best regards', 'Warm regards', 'Best wishes', 'Best', 'Cheers', 'Thanks', 'Thank you',
  'Many thanks', 'Sincerely', 'Yours sincerely', 'Yours faithfully', 'Mit freundlichen Grüßen', 'Viele Grüße',
  'Liebe Grüße', 'Beste Grüße', 'Cordialement', 'Bien à vous', 'Amicalement', 'Bien cordialement', 'Saludos',
  'Un saludo', 'Atentamente', 'Cordiali saluti', 'Saluti', 'Distinti saluti', 'Un abbraccio', 'Pozdrawiam',
  'Z poważaniem', 'Met vriendelijke groet', 'Met vriendelijke groeten', 'Groeten', 'Groetjes',
];

/**
 * Labels a name follows after a colon ("Name: Tegan Prothero", "Kontoinhaber: …", "De : …"), in the seven
 * languages, lower case: form fields, mail headers, minutes and tickets.
 */
export const NAME_LABELS: ReadonlySet<string> = new Set([
  'name', 'full name', 'customer name', 'account holder', 'account name', 'cardholder', 'card holder', 'patient',
  'patient name', 'contact', 'contact person', 'attendees', 'participants', 'from', 'cc', 'author', 'assignee',
  'reporter', 'signed', 'employee', 'tenant', 'applicant', 'beneficiary', 'recipient', 'sender', 'passenger', 'guest',
  'to', 'bcc', 'reviewer', 'reviewers', 'approver', 'requester', 'reported by', 'requested by', 'approved by',
  'assigned to', 'created by', 'submitted by', 'signed by', 'an', 'à', 'para', 'aan',
  'vorname', 'nachname', 'vor- und nachname', 'kontoinhaber', 'kontoinhaberin', 'ansprechpartner',
  'ansprechpartnerin', 'teilnehmer', 'teilnehmende', 'von', 'absender', 'empfänger', 'patientin', 'mieter',
  'antragsteller', 'begünstigter', 'verfasser',
  'nom', 'prénom', 'nom complet', 'titulaire', 'titulaire du compte', 'interlocuteur', 'interlocutrice', 'de',
  'expéditeur', 'destinataire', 'locataire', 'bénéficiaire', 'auteur', 'demandeur',
  'nombre', 'nombre completo', 'apellidos', 'titular', 'titular de la cuenta', 'asistentes', 'participantes',
  'persona de contacto', 'contacto', 'remitente', 'destinatario', 'paciente', 'inquilino', 'beneficiario', 'autor',
  'solicitante',
  'nome', 'cognome', 'nome e cognome', 'intestatario', 'titolare', 'partecipanti', 'referente', 'contatto',
  'mittente', 'paziente', 'autore', 'richiedente',
  'imię', 'nazwisko', 'imię i nazwisko', 'właściciel', 'właściciel rachunku', 'uczestnicy', 'osoba kontaktowa',
  'kontakt', 'nadawca', 'odbiorca', 'pacjent', 'pacjentka', 'najemca', 'wnioskodawca', 'od',
  'naam', 'voornaam', 'achternaam', 'rekeninghouder', 'deelnemers', 'contactpersoon', 'afzender', 'ontvanger',
  'patiënt', 'huurder', 'aanvrager', 'begunstigde', 'van',
]);

/**
 * Phrases a name follows with no colon ("The account holder is …", "ich heiße …", "hablé con …"), lower case,
 * in the seven languages.
 */
export const NAME_CUES = [
  'account holder is', 'my name is', 'spoke to', 'spoke with', 'talked to', 'talked with', 'met with',
  'on behalf of', 'in the name of',
  'kontoinhaber ist', 'kontoinhaberin ist', 'mein name ist', 'ich heiße', 'im namen von',
  'titulaire du compte est', "je m'appelle", 'je m’appelle', 'mon nom est', 'parlé avec', 'parlé à', 'au nom de',
  'titular de la cuenta es', 'me llamo', 'mi nombre es', 'hablé con', 'a nombre de', 'en nombre de',
  'intestatario del conto è', 'mi chiamo', 'il mio nome è', 'parlato con', 'a nome di',
  'właścicielem konta jest', 'nazywam się', 'rozmawiałem z', 'rozmawiałam z', 'w imieniu',
  'rekeninghouder is', 'mijn naam is', 'ik heet', 'gesproken met', 'namens', 'op naam van',
  // A man page's or a README's credits ("Written by Torbjorn Granlund, David MacKenzie …").
  'written by', 'maintained by', 'geschrieben von', 'écrit par', 'écrite par', 'escrito por', 'escrita por',
  'scritto da', 'scritta da', 'mantenuta da', 'mantenuto da', 'napisane przez', 'napisany przez', 'napisana przez',
  'geschreven door', 'onderhouden door',
];

/**
 * "With" between two people, in the seven languages ("Scholz mit Wiśniewski"): one meets, calls or works with
 * someone. A regular-expression alternation.
 */
export const WITH_WORDS = 'with|mit|avec|con|met|z|ze';

/**
 * Verbs of saying and thinking, third person, and the one-word "according to"s, in the seven languages: a
 * capitalised word right before or after one is a speaker ("Yeltsin said", "erklärte Götschow", "zegt Durant",
 * "aldus Verhaegen", "laut Eppenstein", "dijo Etxeberria", "powiedział Nowak"). Only simple forms: a compound's
 * auxiliary ("a dit", "ha detto") is too common a word to stand for it.
 */
export const SPEECH_VERBS: ReadonlySet<string> = new Set(`
said says told added asked wrote explained replied insisted argued noted admitted warned recalled stated believes
thinks announced confirmed denied claimed testified complained predicted suggested urged acknowledged conceded
sagte sagt erklärte erklärt meinte meint betonte betont berichtete schrieb fragte antwortete beklagte beklagt
kritisierte kritisiert ergänzte ergänzt bestätigte bestätigt erläuterte erläutert warnte warnt forderte fordert
resümierte erzählte erzählt glaubt laut
zei zegt verklaarde vertelde schreef vroeg antwoordde meent meende benadrukte aldus volgens
dit déclare explique affirme ajoute précise estime souligne raconte répond selon
dijo dice afirmó explicó señaló declaró aseguró añadió indicó comentó manifestó respondió según
disse spiega afferma aggiunge dichiara sostiene racconta risponde commenta spiegò affermò aggiunse dichiarò secondo
powiedział powiedziała mówi stwierdził stwierdziła dodał dodała podkreślił podkreśliła wyjaśnił wyjaśniła uważa twierdzi
zdaniem
`.split(/\s+/).filter((w) => w !== ''));

/**
 * Roles and kin a name follows in running text, lower case ("coach Hiddink", "Trainer Sammers", "die Familie
 * Nadscharow", "l'allenatore Ancelotti", "zia Ester"); matched whatever the case of their first letter. Beside
 * OFFICES, which a title may address without a name; these mark the capitalised word after them as a person.
 */
export const ROLE_WORDS: ReadonlySet<string> = new Set(`
coach manager spokesman spokeswoman striker goalkeeper captain director writer novelist singer actor actress lawyer
attorney uncle aunt colleague inspector detective sergeant
trainer sprecher sprecherin vorsitzender vorsitzende chef chefin kapitän torwart stürmer regisseur regisseurin autor
autorin sänger sängerin schauspieler schauspielerin anwalt anwältin familie onkel tante
woordvoerder aanvaller doelman zanger zangeres schrijver schrijfster advocaat familie oom
entraîneur porte-parole attaquant gardien réalisateur réalisatrice écrivain chanteur chanteuse acteur actrice avocat
avocate famille oncle tante
entrenador portavoz delantero portero escritor escritora cantante actriz abogado abogada familia tío tía
allenatore portavoce attaccante portiere regista scrittore scrittrice attore attrice avvocato famiglia zio zia
trener rzecznik rzeczniczka napastnik bramkarz reżyser pisarz pisarka piosenkarz piosenkarka aktor aktorka adwokat
rodzina wujek ciocia
`.split(/\s+/).filter((w) => w !== ''));

/** Surname particles, written between the given name (or title) and the surname. */
export const PARTICLES = [
  'van der', 'van den', 'van de', 'van', 'von der', 'von', 'de la', 'de las', 'de los', 'del', 'de', 'di', 'da', 'du',
  'le', 'la', 'dos', 'das', 'ter', 'ten', 'zu', 'bin', 'ibn', 'al', 'el', 'Ní', 'Nic', 'Mac', 'Ó', 'Ua',
];

/**
 * Words that, right after a name, make it the name of a place, a building or a firm ("Victoria Station",
 * "Elizabeth Line", "Ronald McDonald House"): the whole match is dropped.
 */
export const PLACE_WORDS: ReadonlySet<string> = new Set(`
Street Road Avenue Lane Drive Way Close Place Square Gardens Terrace Court Station Airport Hospital Ward Clinic Surgery
Centre Center College University School Academy Institute Church Cathedral Chapel Abbey House Hall Hotel Park Bridge
Line Tower Building Foundation Trust Fund Ltd Limited Inc Plc LLP GmbH AG SA SRL BV Group Company Bank Airlines
Airways Memorial Library Museum Gallery Theatre Theater Stadium Arena Market Mall Shop Store Bakery Pharmacy Prize
Award Lecture Bay Island River Lake Mountain Valley Forest Hill Hills Estate Quay Wharf Port Harbour Strasse Straße
Platz Allee Bahnhof Krankenhaus Flughafen Rue Gare Aéroport Hôpital Calle Plaza Estación Aeropuerto Via Piazza
Stazione Aeroporto Ospedale Ulica Dworzec Lotnisko Szpital Straat Plein Ziekenhuis Luchthaven Syndrome Disease Effect
Law Theorem Medal Cup Trophy
Route Point Pass Parks Coves Cove Crossing Junction Ridge Heights Trail Loop Extension Extensions Union Gateway Mission
Partners Associates Holdings Investments Orchestra Consulting Solutions Industries Ventures
Rua Str Utca Rapids Greens Islands Forks Mill Bypass Cliffs Summit Turnpike Crossroad Creek Lines
`.split(/\s+/).filter((w) => w !== ''));

/** Capitalised words that are never part of a person's name: a name stops before them, a greeting to them is none. */
export const STOP_WORDS: ReadonlySet<string> = new Set(`
The And Or Of For To In On At By With From Is Are Was Were Be Has Have Had Not No Yes All Any Every Some This That
These Those Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July
August September October November December Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Team Everyone Everybody
World There Folks Guys Support Admin Sales Service Services Sir Madam Madame Customer Colleagues Friends Mum Mom Dad
Hiring Manager Again Both Grüße Grüsse Gruß Regards Wishes Saludos Saluti Groeten Greetings Software Engineer
Developer Director Analyst Consultant Designer Architect Product Data Staff Principal Lead Vice President Associate
Account Executive Officer Specialist Scientist Member Partner
Session Build Builds Scheduler Assistant Query Queries Server Servers Client Clients Worker Workers Engine
Cluster Node Nodes Pipeline Runner Job Jobs Task Tasks Api App Apps Studio Cloud Platform Console Dashboard Agent
Bot Model Models Store Stores Database Cache Queue Topic Stream Streams Gateway Proxy Router Controller Handler
Module Package Plugin Extension Library Framework Driver Adapter Connector Sdk Cli Core Kit Hub Lab Labs Suite
Edition Version Release Update Upgrade Deploy Deployment Test Tests Error Errors Exception Warning Info Debug Log Logs
Started Stopped Failed Passed Running Completed Finished Created Updated Deleted Received Sent Loaded Saved
Lorem Ipsum
`.split(/\s+/).filter((w) => w !== ''));

/**
 * "World" in the six other languages, as a program greets it ("Hallo Welt", "Hola Mundo", "Witaj Świecie"): after a
 * greeting it is no one's name. English "World" is among STOP_WORDS, a feature the model was trained with.
 */
export const WORLD_WORDS: ReadonlySet<string> = new Set('Welt Monde Mundo Mondo Wereld Świecie Świat'.split(' '));

/**
 * Words that open an English sentence and no name: after a variable or an argument that ends the sentence before, a
 * title rule read "M. However" or "sig. Unlike strsignal()" as a title and a name (git's and the C library's man
 * pages: "… but not M. Finally, the natural merge …").
 */
export const SENTENCE_OPENERS: ReadonlySet<string> = new Set(
  `However Finally Additionally Note Unlike Also Then Thus Hence Otherwise Instead Moreover Furthermore
Therefore Similarly Likewise Nevertheless Nonetheless Meanwhile Consequently Alternatively Conversely Indeed Here
Since Because Although Unless Until After Before Whereas`.split(/\s+/),
);

/**
 * Time adverbs that open a sentence before its subject in the seven languages ("Ieri Franco Ossowski ha scritto",
 * "Gisteren schreef …"): never part of a name the tagger reads on from them. Lower case, compared lower-cased.
 */
export const OPENING_TIME_ADVERBS: ReadonlySet<string> = new Set(
  `yesterday today tomorrow gestern heute morgen vorgestern übermorgen hier aujourd'hui demain ayer hoy mañana anteayer
ieri oggi domani stamattina stasera gisteren vandaag morgen eergisteren wczoraj dzisiaj dziś jutro przedwczoraj`.split(/\s+/),
);

/**
 * God, in the seven languages and Polish cases: capitalised where a name stands ("God gave rock and roll", "Gott
 * sei Dank") and no one's personal data. Not among STOP_WORDS: those are a feature the model was trained with.
 */
export const DEITIES: ReadonlySet<string> = new Set('God Gott Dieu Dios Dio Bóg Boga Bogu Allah'.split(' '));

/**
 * Assistants and models named like people, as agent prompts write them ("Claude Code", "Sonnet 5"): for the name
 * tagger a name only before a known surname (the lists hold these among the common-word given names).
 */
export const PRODUCT_NAMES: ReadonlySet<string> = new Set(
  'Claude Alexa Siri Cortana Gemini Copilot Opus Sonnet Haiku Fable Mistral Llama Bard Jarvis Watson Jasper'.split(' '),
);

/**
 * Words after an assistant's name that make it a product and that the model's lexicon does not write in lower case
 * ("Claude Desktop", "Gemini Ultra"); a common word ("Claude Code", "Gemini Pro") or an acronym or number ("Claude
 * API", "Llama 3") does so too, a surname no list holds ("Claude Monet", "Claude Debussy") does not.
 */
export const PRODUCT_WORDS_AFTER: ReadonlySet<string> = new Set('Desktop Workspace Shortcuts Artifacts Ultra Nano Mini'.split(' '));

/**
 * Operating systems and processor architectures, as man pages and build logs name them ("Unter Linux hat sich …",
 * "auf PowerPC und Xtensa"): alone, never a person.
 */
export const PLATFORM_NAMES: ReadonlySet<string> = new Set(
  'Linux FreeBSD OpenBSD NetBSD Solaris Minix Debian Ubuntu Fedora Gentoo PowerPC Xtensa DECnet Cygwin MinGW'.split(' '),
);

/**
 * Languages as English names them, in translation credits and settings ("[ Updated translations ] * Catalan
 * (Guillem Jover)", "Debian L10n Spanish <…>"): alone, never a person. Those that are also common surnames or given
 * names (English, French, Welsh, Irish, German, Dutch) are left out.
 */
export const LANGUAGE_NAMES: ReadonlySet<string> = new Set(
  `Albanian Arabic Armenian Asturian Basque Belarusian Bengali Bosnian Breton Bulgarian Catalan Chinese Croatian Czech
  Danish Esperanto Estonian Faroese Finnish Galician Georgian Greek Gujarati Hebrew Hindi Hungarian Icelandic
  Indonesian Italian Japanese Kazakh Khmer Korean Kurdish Latvian Lithuanian Macedonian Malay Malayalam Marathi
  Mongolian Nepali Norwegian Occitan Persian Polish Portuguese Punjabi Romanian Russian Serbian Sinhala Slovak
  Slovenian Spanish Swahili Swedish Tajik Tamil Telugu Thai Tibetan Turkish Ukrainian Urdu Uzbek Vietnamese`
    .split(/\s+/)
    .filter((w) => w !== ''),
);

/** Words before a name that make it part of a place's name: "St Thomas' Hospital", "San Francisco", "Sankt Georg". */
export const PLACE_PREFIXES = ['St', 'St.', 'Saint', 'Sainte', 'San', 'Santa', 'Santo', 'São', 'Sankt', 'Port', 'Fort', 'Lake', 'Mount', 'Mont'];
