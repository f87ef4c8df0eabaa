import { expect } from 'chai';
import { onCodeLine, typeNamesIn } from '../../src/names/type-names.js';

describe('privacy: type names in code', () => {
  it('finds identifiers annotated with the type they are named after, optional ones too', () => {
    const code = 'function settle(grant: Grant, usage?: Usage, rose:Rose, count: number, user: Account) {}\nclass Person:\n    person: Person';
    expect([...typeNamesIn(code)].sort()).to.deep.equal(['Grant', 'Person', 'Rose', 'Usage']);
  });

  it('finds none in prose with colons', () => {
    expect([...typeNamesIn('Note: Grant will call. He said: Rose is late. grant:\nGrant. Time: 10:30 grant : Grant')]).to.deep.equal([]);
  });

  it('reads a line as code by a comment marker, code punctuation or the annotation itself, and prose as prose', () => {
    const text = '/** A Grant without evidence. */\n  grant: Grant,\n * the Grant we saw\nGrant will review it.';
    const at = (needle: string): number => text.indexOf(needle) + needle.indexOf('Grant');
    expect(onCodeLine(text, at('A Grant'), 'Grant')).to.equal(true);
    expect(onCodeLine(text, at('grant: Grant'), 'Grant')).to.equal(true);
    expect(onCodeLine(text, at('the Grant'), 'Grant')).to.equal(true);
    expect(onCodeLine(text, at('Grant will'), 'Grant')).to.equal(false);
  });
});
