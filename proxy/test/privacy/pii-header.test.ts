import { expect } from 'chai';
import { formatPiiHeader } from '../../src/privacy/pii-header.js';

describe('privacy/pii-header', () => {
  it('lists types in a stable order, omitting zero counts', () => {
    expect(formatPiiHeader({ PHONE: 1, EMAIL: 2 })).to.equal('EMAIL=2,PHONE=1');
    expect(formatPiiHeader({ IP_ADDRESS: 3, UK_NHS: 1, CARD: 0, DE_TAX_ID: 1 })).to.equal('UK_NHS=1,IP_ADDRESS=3,DE_TAX_ID=1');
  });

  it('is empty when nothing was found', () => {
    expect(formatPiiHeader({})).to.equal('');
    expect(formatPiiHeader({ EMAIL: 0 })).to.equal('');
  });
});
