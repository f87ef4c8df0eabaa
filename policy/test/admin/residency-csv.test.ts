import { expect } from 'chai';
import { residencyReportCsv } from '../../src/admin/residency-csv.js';

describe('residency report as CSV', function () {
  it('writes a header, quotes what RFC 4180 requires, and leaves a route not recorded empty', function () {
    const csv = residencyReportCsv([
      { date: '2026-11-02', tier: null, call_region: null, processing_regions: null, regions_basis: null, requests: 3, billable_units: 45, platform: null },
      { date: '2026-11-02', tier: 'eu', call_region: 'eu-central-1', processing_regions: ['eu-central-1', 'eu-west-1'], regions_basis: 'verified', requests: 2, billable_units: 300, platform: 'bedrock' },
      { date: '2026-11-03', tier: 'uk', call_region: 'eu-west-2', processing_regions: ['eu-west-2'], regions_basis: 'declared', requests: 1, billable_units: 7, platform: 'vertex' },
      // Not a region any catalogue names: a quote inside a field is doubled, the field quoted.
      { date: '2026-11-03', tier: 'uk', call_region: 'odd"region', processing_regions: [], regions_basis: 'declared', requests: 1, billable_units: 0, platform: 'messages' },
    ]);
    expect(csv).to.equal([
      'date,tier,call_region,processing_regions,regions_basis,requests,billable_units,platform',
      '2026-11-02,,,,,3,45,',
      '2026-11-02,eu,eu-central-1,"eu-central-1,eu-west-1",verified,2,300,bedrock',
      '2026-11-03,uk,eu-west-2,eu-west-2,declared,1,7,vertex',
      '2026-11-03,uk,"odd""region",,declared,1,0,messages',
      '',
    ].join('\r\n'));
    expect(residencyReportCsv([])).to.equal('date,tier,call_region,processing_regions,regions_basis,requests,billable_units,platform\r\n');
  });
});
