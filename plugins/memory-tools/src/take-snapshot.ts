import { defineTool, isMiraError, rejectedResult, type ToolResult } from '@mira/core';
import { MemoryErrorCodes, takeSnapshot, type MemoryStore, type SnapshotSensors } from '@mira/memory-contract';
import { describeFailure, type FailureLog } from './recall.js';
import { MAX_FIELD_LENGTH, matchField } from './proposal-fields.js';
import { findWholeSpan, toMatchText } from './span-match.js';

/**
 * `take_snapshot`: keeps the camera's latest frame as an observation of a known entity, when the operator
 * asks for it. An effect under remember's rules: offered only in operator episodes, at most one per
 * episode; the subject is an entity the operator names in the current message (resolved exactly: a miss
 * or an ambiguity is refused with the candidates, never guessed); a caption is the operator's own words
 * from that message. Its memory says a sensor saw it, not that anyone said it.
 */
export function takeSnapshotTool(
  getStore: () => MemoryStore,
  sensors: SnapshotSensors,
  monotonic: () => number,
  log: FailureLog,
) {
  return defineTool({
    name: 'take_snapshot',
    description:
      "Keep what the robot's camera sees now as a snapshot of a known entity, only when the operator asks for it in the current message " +
      '("take a picture of the shelf"). subject: the entity exactly as the operator wrote it; caption: words copied from the message, or null; ' +
      'camera: null for the only camera. The result is the only confirmation that it was kept.',
    kind: 'effect',
    origins: ['operator'],
    maxCallsPerEpisode: 1,
    parameters: {
      type: 'object',
      properties: {
        subject: { type: 'string', description: 'The entity, exactly as written in the current operator message.' },
        caption: {
          type: ['string', 'null'],
          description: 'A caption copied verbatim from the current operator message, or null.',
        },
        camera: { type: ['string', 'null'], description: 'Which camera (e.g. front), or null for the only one.' },
      },
      required: ['subject', 'caption', 'camera'],
      additionalProperties: false,
    },
    async run({ subject, caption, camera }, { episode }): Promise<ToolResult> {
      if (episode.origin !== 'operator' || episode.utterance === undefined)
        return rejectedResult('not_asked', 'only the operator can ask for a snapshot; nothing was kept');
      const spoken = toMatchText(episode.utterance);
      const named = matchField(subject, MAX_FIELD_LENGTH);
      if (!spoken || !named || !findWholeSpan(spoken, named, { particles: true }))
        return rejectedResult(
          'subject_not_in_utterance',
          'the subject must be an entity the operator names in the current message, as written; nothing was kept',
        );
      const said = caption === null ? undefined : matchField(caption, MAX_FIELD_LENGTH * 4);
      if (caption !== null && (!said || !findWholeSpan(spoken, said)))
        return rejectedResult(
          'caption_not_in_utterance',
          "a caption is the operator's own words, copied from the current message; give null otherwise; nothing was kept",
        );
      try {
        const store = getStore();
        const found = await store.findEntities(subject);
        if (found.length === 0)
          return rejectedResult(
            'subject_not_found',
            `no entity is named exactly "${subject}"; the operator can add it (memory entity add); nothing was kept`,
          );
        if (found.length > 1)
          return rejectedResult(
            'subject_ambiguous',
            `"${subject}" names ${found.length} entities; ask the operator which; nothing was kept`,
            { candidate_ids: found.map((e) => e.ref) },
          );
        const entity = found[0]!;
        const { memory, camera: used } = await takeSnapshot(store, sensors, monotonic(), {
          links: [{ entityId: entity.id, role: 'subject' }],
          caption: caption === null ? null : caption.trim(),
          camera,
        });
        return {
          content: JSON.stringify({
            status: 'applied',
            memory_id: memory.ref,
            entity_id: entity.ref,
            camera: used.id,
          }),
          display: `${memory.ref} of ${entity.ref} ${JSON.stringify(entity.canonicalName)} (${used.id})`,
        };
      } catch (error) {
        if (isMiraError(error, MemoryErrorCodes.SNAPSHOT_UNAVAILABLE))
          return rejectedResult('no_frame', `${(error as Error).message.replace(/^MIRA_ERR_\w+: /, '')}`);
        log(`take_snapshot: persistent memory could not be written: ${describeFailure(error)}`);
        return rejectedResult('backend_failure', 'persistent memory could not be written; nothing was kept');
      }
    },
  });
}
