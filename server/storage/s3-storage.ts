import type { Readable } from 'node:stream';
import { assertSafeKey, type Storage } from './storage';

export type S3StorageOptions = {
  bucket: string;
  /** Endpoint of an S3-compatible server (MinIO, Ceph, s3rver); unset: AWS for `region`. */
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Key prefix inside the bucket, e.g. `valuation-lab/`; empty by default. */
  prefix?: string;
  /** Path-style addressing (`endpoint/bucket/key`), needed by most self-hosted servers. */
  forcePathStyle?: boolean;
};

const isNotFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number }; Code?: string };
  return (
    e?.name === 'NotFound' ||
    e?.name === 'NoSuchKey' ||
    e?.Code === 'NoSuchKey' ||
    e?.$metadata?.httpStatusCode === 404
  );
};

/** Reads a stream fully: an S3 PUT needs a known length, and files here are at most a few MB. */
async function toBuffer(body: Readable | Buffer): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * The Storage interface over an S3-compatible object store. A PUT is atomic on the server side:
 * the key appears only once the whole object is stored, so there is no temp-then-rename step.
 * The AWS SDK is loaded here, not when the server starts: it costs about 0.2 s of every start and
 * a lab keeping its files on disk never needs it.
 */
export async function createS3Storage(opts: S3StorageOptions): Promise<Storage> {
  const {
    DeleteObjectCommand,
    GetObjectCommand,
    HeadObjectCommand,
    ListObjectsV2Command,
    PutObjectCommand,
    S3Client,
  } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    region: opts.region ?? 'us-east-1',
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    forcePathStyle: opts.forcePathStyle ?? Boolean(opts.endpoint),
    ...(opts.accessKeyId && opts.secretAccessKey
      ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } }
      : {}),
  });
  const prefix = (opts.prefix ?? '').replace(/^\/+/, '');
  const Bucket = opts.bucket;
  const objectKey = (key: string) => `${prefix}${assertSafeKey(key)}`;

  return {
    async put(key, body) {
      const Key = objectKey(key);
      const buffer = await toBuffer(body);
      await client.send(new PutObjectCommand({ Bucket, Key, Body: buffer, ContentLength: buffer.length }));
      return { size: buffer.length };
    },
    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        return res.Body as Readable;
      } catch (err) {
        if (isNotFound(err)) throw Object.assign(new Error('not found'), { code: 'ENOENT' });
        throw err;
      }
    },
    async read(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        return Buffer.from(
          await (res.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
        );
      } catch (err) {
        if (isNotFound(err)) throw Object.assign(new Error('not found'), { code: 'ENOENT' });
        throw err;
      }
    },
    async exists(key) {
      let Key: string;
      try {
        Key = objectKey(key);
      } catch {
        return false;
      }
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key }));
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },
    async modifiedAt(key) {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return res.LastModified ?? null;
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    // A PUT either stores the whole object or nothing: no unfinished writes to sweep.
    sweepIncomplete: async () => [],
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async list(listPrefix) {
      const dir = listPrefix.replace(/\/+$/, '');
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const res = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: `${prefix}${dir}/`, ContinuationToken }),
        );
        for (const o of res.Contents ?? []) {
          if (!o.Key) continue;
          const rest = o.Key.slice(prefix.length + dir.length + 1);
          if (rest && !rest.includes('/')) keys.push(`${dir}/${rest}`);
        }
        ContinuationToken = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys;
    },
  };
}
