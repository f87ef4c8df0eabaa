import { expect } from 'chai';
import { detect } from '../../src/detect.js';
import { signsAsCodingAgent } from '../../src/names/agent-signatures.js';
import { atValue } from './hand-spans.js';

/** The PERSON values detect finds in `text`. */
function people(text: string): string[] {
  return detect(text)
    .filter((f) => f.type === 'PERSON')
    .map((f) => f.value);
}

describe('privacy/names/agent-signatures', () => {
  it('reads a coding agent signing a commit with its vendor’s mailbox as no person', () => {
    const log = [
      'commit 1b5cfe3d3777d4ceb7f35fcee9d3c4279316a084',
      'Author: Tavian Barnes <tavianator@tavianator.com>',
      '',
      '    Fix the parser.',
      '',
      '    Co-Authored-By: Claude <noreply@anthropic.com>',
      '    Co-authored-by: Cursor <cursoragent@cursor.com>',
      '    Co-authored-by: Codex <codex@openai.com>',
      '    Co-authored-by: OpenAI Codex <codex@openai.com>',
      '    Co-authored-by: Copilot <175728472+Copilot@users.noreply.github.com>',
    ].join('\n');
    expect(people(log)).to.deep.equal(['Tavian Barnes']);
    // The mailbox stays an address the modes treat as such.
    expect(detect(log).filter((f) => f.type === 'EMAIL').map((f) => f.value)).to.include('noreply@anthropic.com');
  });

  it('keeps people named like an agent, or signing with another mailbox', () => {
    expect(people('Author: Claude <claude.martin@example.fr>')).to.deep.equal(['Claude']);
    // The agent's own mailbox, not a person's at the same firm.
    expect(people('Author: Claude <claude.dubois@anthropic.com>')).to.deep.equal(['Claude']);
    expect(people('Co-authored-by: Claude Martin <noreply@anthropic.com>')).to.deep.equal(['Claude Martin']);
    expect(people('Claude Monet painted it; Claude Debussy wrote it.')).to.deep.equal(['Claude Monet', 'Claude Debussy']);
    // On GitHub's no-reply domain only the agent's own account vouches for it.
    const text = 'Co-authored-by: Copilot <1234+octocat@users.noreply.github.com>';
    expect(atValue(signsAsCodingAgent)(text, 'Copilot')).to.equal(false);
    const own = 'Co-authored-by: Copilot <175728472+Copilot@users.noreply.github.com>';
    expect(atValue(signsAsCodingAgent)(own, 'Copilot')).to.equal(true);
  });
});
