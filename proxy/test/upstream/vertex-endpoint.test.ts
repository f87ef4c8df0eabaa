import { expect } from 'chai';
import { vertexModelPath, vertexOrigin } from '../../src/upstream/vertex/vertex-upstream.js';

describe('Vertex AI endpoints (the URL a route is called on)', function () {
  it('calls a regional location on its regional host and `eu` on the EU multi-region host', function () {
    const path = vertexModelPath('proj-1', 'europe-west4', 'alpha-sonnet-5@20260930', 'rawPredict');
    expect(`${vertexOrigin('europe-west4', undefined)}${path}`).to.equal(
      'https://europe-west4-aiplatform.googleapis.com/v1/projects/proj-1/locations/europe-west4/publishers/anthropic/models/alpha-sonnet-5@20260930:rawPredict',
    );
    expect(`${vertexOrigin('eu', undefined)}${vertexModelPath('proj-1', 'eu', 'alpha-sonnet-5@20260930', 'streamRawPredict')}`).to.equal(
      'https://aiplatform.eu.rep.googleapis.com/v1/projects/proj-1/locations/eu/publishers/anthropic/models/alpha-sonnet-5@20260930:streamRawPredict',
    );
  });

  it('replaces only the scheme and host with an upstream\'s url (Private Service Connect)', function () {
    expect(vertexOrigin('eu', 'https://psc.example.internal:8443/ignored/path')).to.equal('https://psc.example.internal:8443');
  });
});
