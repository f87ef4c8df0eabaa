import { expect } from 'chai';
import { ukDrivingLicenceRecognizer } from '../../src/recognizers/uk-driving-licence.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/uk-driving-licence', () => {
  const find = (text: string): string[] => findValues(ukDrivingLicenceRecognizer, text);

  it('finds DVLA numbers after licence context, with an optional issue number', () => {
    expect(find('Driving licence number MORGA753116SM9IJ.')).to.deep.equal(['MORGA753116SM9IJ']);
    expect(find('DVLA: JONES861025AB9CD 12')).to.deep.equal(['JONES861025AB9CD 12']);
    expect(find('driving licence: LI999602085J99KL')).to.deep.equal(['LI999602085J99KL']);
  });

  it('rejects impossible encoded dates, bad padding and missing context', () => {
    expect(find('Driving licence MORGA713116SM9IJ')).to.deep.equal([]); // month 13
    expect(find('Driving licence MO9GA753116SM9IJ')).to.deep.equal([]); // 9 inside the surname
    expect(find('Reference MORGA753116SM9IJ')).to.deep.equal([]);
  });
});
