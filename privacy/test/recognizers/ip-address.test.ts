import { expect } from 'chai';
import { ipAddressRecognizer } from '../../src/recognizers/ip-address.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/ip-address', () => {
  const find = (text: string): string[] => findValues(ipAddressRecognizer, text);

  it('finds IPv4 addresses, with a port or at a sentence end', () => {
    expect(find('Login from 81.2.69.160 at 10:22')).to.deep.equal(['81.2.69.160']);
    expect(find('connect to 51.18.3.4:8080.')).to.deep.equal(['51.18.3.4']);
    expect(find('blocked 192.168.0.12.')).to.deep.equal(['192.168.0.12']);
    expect(find('|106.31.73.20|%20')).to.deep.equal(['106.31.73.20']);
  });

  it('finds IPv6 addresses in full, compressed, bracketed and mapped forms', () => {
    expect(find('from 2001:db8:85a3::8a2e:370:7334 today')).to.deep.equal(['2001:db8:85a3::8a2e:370:7334']);
    expect(find('[2a02:c7f:1234::1]:443')).to.deep.equal(['2a02:c7f:1234::1']);
    expect(find('6e40:4041:c617:e898:c11:40d2:c669:2eb4')).to.deep.equal(['6e40:4041:c617:e898:c11:40d2:c669:2eb4']);
    // An IPv4-mapped address has too few groups to tell from code; its IPv4 part is what identifies.
    expect(find('::ffff:81.2.69.160')).to.deep.equal(['81.2.69.160']);
  });

  it('rejects invalid octets, versions, and addresses that identify no one', () => {
    expect(find('256.1.1.1 and 1.2.3 and 01.2.3.4')).to.deep.equal([]);
    expect(find('Windows version 10.0.19045.3693, v1.2.3.4, version 1.2.3.4')).to.deep.equal([]);
    expect(find('listen on 0.0.0.0:8080 and 127.0.0.1, netmask 255.255.255.0, ::1')).to.deep.equal([]);
  });

  it('rejects network ranges, x.0.0.0 and versions written as code, but keeps a /32 host', () => {
    expect(find('cidr_block = "10.0.0.0/16"; subnet 192.168.1.0/24; allow 81.2.69.0/24; 2001:db8::/32')).to.deep.equal([]);
    expect(find('Version=4.0.0.0, Culture=neutral')).to.deep.equal([]);
    expect(find('[assembly: AssemblyVersion("1.2.3.4")] FileVersion: 2.0.1.7 "version": "3.1.4.1"')).to.deep.equal([]);
    expect(find('deny 81.2.69.160/32 and 2a02:c7f:1234::1/128')).to.deep.equal(['81.2.69.160', '2a02:c7f:1234::1']);
    expect(find('from 10.1.2.3 port 22')).to.deep.equal(['10.1.2.3']);
  });

  it("reads a private address with a port or in a URL as a service's, a public one as a host's", () => {
    expect(find('ECONNREFUSED 10.0.3.7:5432; REDIS_URL=redis://172.16.4.2/0; ssh app@192.168.1.20')).to.deep.equal([]);
    expect(find('client=192.168.1.20 upstream=10.0.3.7:8080')).to.deep.equal(['192.168.1.20']);
    // A source port in the ephemeral range is a client's.
    expect(find('Login from 192.168.1.23:51544 failed for bob')).to.deep.equal(['192.168.1.23']);
    expect(find('connect to 81.2.69.160:8080 or https://81.2.69.161/')).to.deep.equal(['81.2.69.160', '81.2.69.161']);
  });

  it('rejects code and times that contain colons', () => {
    expect(find('std::vector<int> v; a::b; dead::beef')).to.deep.equal([]);
    expect(find('at 10:30:45 and ether 00:1a:2b:3c:4d:5e')).to.deep.equal([]);
    expect(find('fe80::1%eth0')).to.deep.equal([]);
  });
});
