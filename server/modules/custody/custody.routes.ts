import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditContext } from '../../audit/request';
import { z } from 'zod';
import {
  createLocationRequest,
  custodyHistory,
  custodyMoveRequest,
  expertList,
  inventoryResponse,
  locationSchema,
  returnRequest,
  updateLocationRequest,
} from '../../../common/contracts/custody';
import { errorResponse, errorResponses, idParams } from '../../../common/contracts/errors';
import { sampleSchema } from '../../../common/contracts/samples';
import { OWNER_VISIBLE_EVENTS } from '../../../common/domain/custody';
import { MAX_SAMPLE_FILE_BYTES, MAX_SAMPLE_PHOTOS, inMegabytes } from '../../../common/domain/uploads';
import type { AppDeps } from '../../app-deps';
import { currentUser, requirePermission } from '../../plugins/auth';
import { badRequest, notFound } from '../../plugins/errors';
import { sendPdf } from '../../plugins/pdf-reply';
import {
  canHandleCustody,
  canListLocations,
  canManageLocations,
  seesCustodyDetails,
} from '../../policies/custody';
import { canReadSample } from '../../policies/samples';
import { presentSample } from '../samples/samples.presenter';
import { findSample } from '../samples/samples.queries';
import { receiveSampleSubmission } from '../samples/samples.upload';
import { expertName, moveItem, receiveItem, returnItem, SAMPLE_NOT_FOUND } from './custody-events';
import { presentCustodyEvent, presentLocation } from './custody.presenter';
import { listCustodyEvents, listExperts, listLocations } from './custody.queries';
import { inventoryOf } from './inventory';
import { sampleLabel } from './label';
import { changeLocation, createLocation } from './locations';

const sampleCall = errorResponses(400, 401, 403, 404, 409);

/** The signed-in staff member or admin, with what the audit trail records of them. */
const actorOf = (request: FastifyRequest) => ({ id: currentUser(request).id, audit: auditContext(request) });
const bearer = [{ bearer: [] }];

/** The physical item's custody (docs/product/custody.md): intake, moves, returns, labels, locations, inventory. */
export function custodyRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const custodyStaff = requirePermission(canHandleCustody);

    app.post(
      '/api/staff/samples/:id/intake',
      {
        onRequest: custodyStaff,
        schema: {
          tags: ['custody'],
          summary:
            "Check an item in at the intake desk (multipart: 'intake' JSON and optional arrival 'photos')",
          description:
            "'intake' = {receivedAt, itemCount, packaging, conditionOnArrival, locationId?, note?}. With a location the item is in storage, " +
            `else received (at the desk). Photos: JPEG, PNG or HEIC by content, at most ${MAX_SAMPLE_PHOTOS}, ${inMegabytes(MAX_SAMPLE_FILE_BYTES)} MB each. ` +
            'The owner is mailed. A second intake is 409; a retired location 409.',
          security: bearer,
          consumes: ['multipart/form-data'],
          params: idParams,
          response: { 200: sampleSchema, ...sampleCall, 413: errorResponse, 415: errorResponse },
        },
      },
      async (request) => {
        if (!request.isMultipart())
          throw badRequest("Expected multipart form data with an 'intake' part", [
            { path: 'intake', message: "The 'intake' part is required" },
          ]);
        const received = await receiveSampleSubmission(request, deps.storage, undefined, { photos: 'photo' });
        const row = await receiveItem(deps, actorOf(request), request.params.id, received);
        return presentSample(row);
      },
    );

    app.post(
      '/api/staff/samples/:id/custody',
      {
        onRequest: custodyStaff,
        schema: {
          tags: ['custody'],
          summary: 'Move an item inside the lab: to another location, to an expert, back to storage',
          description:
            'moved and to-storage need a locationId; to-expert may name where the expert works. 409 when the item is not in the lab or the location is retired.',
          security: bearer,
          params: idParams,
          body: custodyMoveRequest,
          response: { 200: sampleSchema, ...sampleCall },
        },
      },
      async (request) =>
        presentSample(await moveItem(deps, actorOf(request), request.params.id, request.body)),
    );

    app.post(
      '/api/staff/samples/:id/return',
      {
        onRequest: custodyStaff,
        schema: {
          tags: ['custody'],
          summary:
            'Return an item: by courier (carrier, tracking number, insured value) or collected in person',
          description:
            'courier needs carrier and trackingNumber (insuredValue with currency optional); collected needs collectedBy and idChecked: true. The owner is mailed. 409 for an item that never arrived or already left.',
          security: bearer,
          params: idParams,
          body: returnRequest,
          response: { 200: sampleSchema, ...sampleCall },
        },
      },
      async (request) =>
        presentSample(await returnItem(deps, actorOf(request), request.params.id, request.body)),
    );

    app.get(
      '/api/samples/:id/custody',
      {
        schema: {
          tags: ['custody'],
          summary: "A sample's custody history, oldest first (the owner sees arrival, return and collection)",
          security: bearer,
          params: idParams,
          response: { 200: custodyHistory, ...errorResponses(400, 401, 404) },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const sample = await findSample(deps.db, request.params.id);
        if (!sample || !canReadSample(user, sample)) throw notFound(SAMPLE_NOT_FOUND);
        const labView = seesCustodyDetails(user);
        const rows = await listCustodyEvents(deps.db, sample.id, labView ? undefined : OWNER_VISIBLE_EVENTS);
        return rows.map((r) => presentCustodyEvent(r, labView));
      },
    );

    app.get(
      '/api/staff/samples/:id/label',
      {
        onRequest: custodyStaff,
        schema: {
          tags: ['custody'],
          summary:
            "The item's label as a PDF (VAL id, item, owner's surname, received date, QR code, Code 128 barcode)",
          security: bearer,
          params: idParams,
          response: errorResponses(400, 401, 403, 404),
        },
      },
      async (request, reply) => {
        const { pdf, name } = await sampleLabel(deps.db, request.params.id);
        return sendPdf(reply, pdf, { name, disposition: 'inline' });
      },
    );

    app.get(
      '/api/admin/locations',
      {
        onRequest: requirePermission(canListLocations),
        schema: {
          tags: ['custody'],
          summary:
            'Storage locations (active first), with the number of items at each now (staff read, admins manage)',
          security: bearer,
          response: { 200: z.array(locationSchema), ...errorResponses(401, 403) },
        },
      },
      async () => (await listLocations(deps.db)).map(presentLocation),
    );

    app.post(
      '/api/admin/locations',
      {
        onRequest: requirePermission(canManageLocations),
        schema: {
          tags: ['custody'],
          summary: 'Add a storage location {name, description?}; names are unique ignoring case (409)',
          security: bearer,
          body: createLocationRequest,
          response: { 201: locationSchema, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const created = await createLocation(deps.db, auditContext(request), request.body);
        reply.code(201);
        return presentLocation(created);
      },
    );

    app.patch(
      '/api/admin/locations/:id',
      {
        onRequest: requirePermission(canManageLocations),
        schema: {
          tags: ['custody'],
          summary: 'Rename, describe, retire ({retired: true}) or bring back a location; never deleted',
          description:
            'A retired location keeps its history and the items still there, and takes no new items.',
          security: bearer,
          params: idParams,
          body: updateLocationRequest,
          response: { 200: locationSchema, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const updated = await changeLocation(deps.db, auditContext(request), request.params.id, request.body);
        return presentLocation(updated);
      },
    );

    app.get(
      '/api/staff/experts',
      {
        onRequest: custodyStaff,
        schema: {
          tags: ['custody'],
          summary: 'Who an item can be handed to: active staff members and admins, by name',
          security: bearer,
          response: { 200: expertList, ...errorResponses(401, 403) },
        },
      },
      async () => (await listExperts(deps.db)).map((e) => ({ id: e.id, name: expertName(e) })),
    );

    app.get(
      '/api/staff/inventory',
      {
        onRequest: requirePermission(canListLocations),
        schema: {
          tags: ['custody'],
          summary:
            'What is in the lab now, by location and custody state, with days there; items held too long after completion flagged',
          security: bearer,
          response: { 200: inventoryResponse, ...errorResponses(401, 403) },
        },
      },
      async () => inventoryOf(deps.db, new Date()),
    );
  };
}
