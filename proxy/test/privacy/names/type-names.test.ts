import { expect } from 'chai';
import { typeNamesIn } from '../../../src/privacy/names/type-names.js';

describe('privacy: type names in code', () => {
  it('finds identifiers annotated with the type they are named after, optional ones too', () => {
    const code = 'function settle(grant: Grant, usage?: Usage, rose:Rose, count: number, user: Account) {}\\nclass Person:\\n    person: Person';
    expect([...typeNamesIn(code)].sort()).to.deep.equal(['Grant', 'Person', 'Rose', 'Usage']);
  });

  it('finds none in prose with colons', () => {
    expect([...typeNamesIn('Note: Grant will call. He said: Rose is late. grant:\\nGrant. Time: 10:30 grant : Grant')]).to.deep.equal([]);
  });
});
