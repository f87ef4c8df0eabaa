// The running text of a TEI file (ELTeC novels, DraCor plays) as paragraphs: each <p>, each verse group (<lg>)
// and, in a play, each speech (<sp>) without its speaker label and stage directions. Notes, headings and the
// header are left out: they are editors' words, not the prose the clusters should learn from.

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

/** The text inside one element: inner tags dropped (a line break between verse lines), entities decoded, spaces collapsed. */
function plain(inner: string): string {
  const text = inner.replace(/<\/l>/g, ' ').replace(/<[^>]*>/g, '');
  return decodeEntities(text).replace(/\s+/g, ' ').trim();
}

/** Elements whose words are not the text's own: removed with their content before paragraphs are read. */
const DROPPED = /<(note|speaker|stage|head|fw|figure|castList|trailer|bibl)\b[^>]*>[\s\S]*?<\/\1>/g;

export function teiParagraphs(xml: string): string[] {
  const out: string[] = [];
  const bodies = xml.match(/<body\b[^>]*>[\s\S]*?<\/body>/g) ?? [];
  for (const raw of bodies) {
    const body = raw.replace(/<!--[\s\S]*?-->/g, '').replace(DROPPED, ' ');
    // A play's speeches hold its <p> and <l>: a speech is one unit; prose and verse groups elsewhere.
    const unit = body.includes('<sp') ? /<(sp)\b[^>]*>([\s\S]*?)<\/sp>/g : /<(p|lg)\b[^>]*>([\s\S]*?)<\/\1>/g;
    for (const m of body.matchAll(unit)) {
      const text = plain(m[2] as string);
      if (text !== '') out.push(text);
    }
  }
  return out;
}
