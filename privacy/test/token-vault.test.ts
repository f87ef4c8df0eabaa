import { expect } from 'chai';
import { collectTokenNames, TokenVault } from '../src/token-vault.js';

describe('privacy/token-vault', () => {
  it('numbers distinct values per type from 1 and reuses tokens for repeats', () => {
    const vault = new TokenVault(new Set());
    expect(vault.tokenFor('EMAIL', 'a@x.com')).to.equal('[EMAIL_1]');
    expect(vault.tokenFor('PHONE', '07700 900123')).to.equal('[PHONE_1]');
    expect(vault.tokenFor('EMAIL', 'b@x.com')).to.equal('[EMAIL_2]');
    expect(vault.tokenFor('EMAIL', 'a@x.com')).to.equal('[EMAIL_1]');
    expect([...vault.tokens]).to.deep.equal([
      ['[EMAIL_1]', 'a@x.com'],
      ['[PHONE_1]', '07700 900123'],
      ['[EMAIL_2]', 'b@x.com'],
    ]);
  });

  it('skips reserved names', () => {
    const reserved = new Set<string>();
    collectTokenNames('see [EMAIL_1], [EMAIL_2] and [lower_1] and [EMAIL_4]', reserved);
    expect([...reserved]).to.deep.equal(['[EMAIL_1]', '[EMAIL_2]', '[EMAIL_4]']);
    const vault = new TokenVault(reserved);
    expect(vault.tokenFor('EMAIL', 'a@x.com')).to.equal('[EMAIL_3]');
    expect(vault.tokenFor('EMAIL', 'b@x.com')).to.equal('[EMAIL_5]');
  });
});
