import { expect } from 'chai';
import { isValidNhsNumber, ukNhsRecognizer } from '../../src/recognizers/uk-nhs.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/uk-nhs', () => {
  const find = (text: string): string[] => findValues(ukNhsRecognizer, text);

  it('checks the mod 11 check digit', () => {
    expect(isValidNhsNumber('9434765919')).to.equal(true);
    expect(isValidNhsNumber('4010232137')).to.equal(true);
    expect(isValidNhsNumber('9434765918')).to.equal(false);
    // Check digit 10 is never issued.
    expect(isValidNhsNumber('0000000060')).to.equal(false);
    expect(isValidNhsNumber('943476591')).to.equal(false);
  });

  it('finds 3-3-4 formatted numbers and bare ones after NHS context', () => {
    expect(find('Patient 943 476 5919 was seen.')).to.deep.equal(['943 476 5919']);
    expect(find('Ref 943-476-5919')).to.deep.equal(['943-476-5919']);
    expect(find('NHS number: 9434765919')).to.deep.equal(['9434765919']);
    expect(find('NHS No. 9434765919 - referral attached')).to.deep.equal(['9434765919']);
    expect(find('NHS Number:\n943 476 5919')).to.deep.equal(['943 476 5919']);
  });

  it('rejects an invalid check digit', () => {
    expect(find('NHS number 943 476 5918')).to.deep.equal([]);
  });

  it('rejects bare 10-digit runs without NHS context (ids, timestamps)', () => {
    expect(find('Customer ID 9434765919 updated')).to.deep.equal([]);
    expect(find('ts=1700000000 and 4010232137')).to.deep.equal([]);
    expect(find('NHS: 9434765919, PO number 4010232137')).to.deep.equal(['9434765919']);
  });

  it('rejects mixed separators, longer runs and phone-like numbers', () => {
    expect(find('943 476-5919')).to.deep.equal([]);
    expect(find('21 943 476 5919')).to.deep.equal([]);
    expect(find('943 476 5919 1')).to.deep.equal([]);
    expect(find('+1-943-476-5919')).to.deep.equal([]);
    expect(find('Call me on 943 476 5919')).to.deep.equal([]);
    expect(find('Office 011 476 5006')).to.deep.equal([]); // valid check digit, but a leading 0 is a phone
    // A contact line makes it a phone too; NHS context still wins.
    expect(find('Salomone Panico – 943 476 5919')).to.deep.equal([]);
    expect(find('Saluti,\nSalomone Panico\n943 476 5919\n')).to.deep.equal([]);
    expect(find('Salomone Panico – NHS 943 476 5919')).to.deep.equal(['943 476 5919']);
  });
});
