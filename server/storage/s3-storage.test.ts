import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe } from 'vitest';
import { createS3Storage } from './s3-storage';
import type { Storage } from './storage';
import { storageContract } from './storage.contract';

// The same contract as the disk storage, against s3rver (an S3-compatible server on loopback).
let server: S3rver;
let endpoint = '';
let dir = '';
let bucketCounter = 0;
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const created: Promise<unknown>[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vl-s3-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', directory: dir, silent: true });
  const address = (await server.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('S3 storage (s3rver)', () => {
  storageContract(() => {
    bucketCounter += 1;
    const bucket = `vl-test-${bucketCounter}`;
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
    const ready = client.send(new CreateBucketCommand({ Bucket: bucket }));
    created.push(ready);
    const opened = createS3Storage({ bucket, endpoint, ...credentials, prefix: 'lab/' });
    // Every call waits for its bucket and the store; the contract test stays implementation-agnostic.
    return new Proxy({} as Storage, {
      get(_target, prop) {
        // Not a promise itself: only the Storage methods are answered.
        if (prop === 'then') return undefined;
        return async (...args: unknown[]) => {
          await ready;
          const storage = await opened;
          const fn = storage[prop as keyof Storage] as (...a: unknown[]) => unknown;
          return fn.apply(storage, args);
        };
      },
    });
  });
});
