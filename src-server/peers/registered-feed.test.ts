import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contactAddress, contactsOfEndpoints } from './registered-feed.ts';

describe('registered contacts from AMI', () => {
  it('reads the address of a contact URI and of the endpoint list', () => {
    assert.equal(contactAddress('sip:101@198.51.100.10:5060;ob'), '198.51.100.10');
    assert.equal(contactAddress('sip:101@[2001:db8::5]:5060'), '2001:db8::5');
    assert.equal(contactAddress('sips:198.51.100.7'), '198.51.100.7');
    assert.equal(contactAddress('sip:101@phone.example.net:5060'), undefined);
    assert.equal(contactAddress(''), undefined);
    assert.deepEqual(
      contactsOfEndpoints([
        { endpoint: '101', deviceState: '', contacts: '101/sip:101@198.51.100.10:5060,101/sip:101@10.0.0.5:5060;ob,' },
        { endpoint: '102', deviceState: '', contacts: '' },
      ]),
      [
        { address: '198.51.100.10', endpoint: '101' },
        { address: '10.0.0.5', endpoint: '101' },
      ],
    );
  });
});
