import type { CorpusSource } from '../../src/index.js';

/**
 * A corpus source for rows a test writes itself: complete licence terms (readManifest would refuse it otherwise)
 * and no files, so only the format and repair the parser reads vary from test to test.
 */
export function inventedSource(format: CorpusSource['format'], repair?: CorpusSource['repair']): CorpusSource {
  return {
    id: 't',
    name: 't',
    licence: 'invented test rows',
    spdx: 'LicenseRef-test',
    commercialUse: true,
    licenceCheck: 'test',
    obligations: { attribution: null, shareAlike: false },
    format,
    ...(repair === undefined ? {} : { repair }),
    files: [],
  };
}
