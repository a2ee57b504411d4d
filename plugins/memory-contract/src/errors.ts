import { defineErrors } from '@mira/core';

/** The errors of the persistent-memory contract: every `MemoryStore` raises these, whatever its backend. */
export const MemoryErrors = defineErrors('@mira/memory-contract', {
  DISABLED: {
    code: 'MIRA_ERR_MEMORY_DISABLED',
    message: 'persistent memory is disabled in this profile',
    fix: 'set [memory] enabled = true and database_path in profile.toml',
    status: 404,
    template:
      'persistent memory is disabled in this profile; set [memory] enabled = true and database_path in profile.toml to use it',
  },
  INVALID_ID: {
    code: 'MIRA_ERR_MEMORY_INVALID_ID',
    message: 'an ID is not of the form ENT<n>, MEM<n> or P<n>',
    fix: 'write the ID as the console prints it, e.g. ENT3, MEM7 or P2',
    situations: {
      ref: {
        message: '"{text}" is not {article} id; write {prefix}<n>, e.g. {prefix}1',
        fix: 'write the ID as the console prints it, e.g. ENT3, MEM7 or P2',
      },
      entityId: {
        message: 'entity id {entityId} is not a positive integer',
        fix: 'give the entity ID as a whole number above 0 (ENT3 or 3)',
      },
      memoryId: {
        message: 'memory id {memoryId} is not a positive integer',
        fix: 'give the memory ID as a whole number above 0 (MEM7 or 7)',
      },
    },
  },
  ENTITY_NOT_FOUND: {
    code: 'MIRA_ERR_MEMORY_ENTITY_NOT_FOUND',
    message: 'there is no entity with that ID',
    template: 'there is no entity {ref}; find one with "memory entity find"',
    fix: 'list entities with memory entity find "<name>"',
    status: 404,
  },
  MEMORY_NOT_FOUND: {
    code: 'MIRA_ERR_MEMORY_NOT_FOUND',
    message: 'there is no memory with that ID',
    template: 'there is no memory {ref}',
    fix: 'check the ID with memory list ENT<n>',
    status: 404,
  },
  ALIAS_EXISTS: {
    code: 'MIRA_ERR_MEMORY_ALIAS_EXISTS',
    message: 'the entity already has that name or alias',
    fix: 'nothing to do; names match exactly after normalisation',
    template: '{ref} "{canonicalName}" is already named "{display}" (same exact key); nothing was added',
  },
  CONFIDENCE_RANGE: {
    code: 'MIRA_ERR_MEMORY_CONFIDENCE_RANGE',
    message: 'a confidence is outside 0.0 to 1.0',
    fix: 'give a number from 0.0 to 1.0',
    situations: {
      value: {
        message: 'confidence must be a number from 0.0 to 1.0, not {confidence}',
        fix: 'give the confidence as a number from 0.0 to 1.0',
      },
      flag: {
        message: '--confidence {text} must be a number from 0.0 to 1.0',
        fix: 'write --confidence as a decimal from 0.0 to 1.0, e.g. --confidence 0.8',
      },
    },
  },
  LINK_INVALID: {
    code: 'MIRA_ERR_MEMORY_LINK_INVALID',
    message: 'a memory link is malformed or repeats an entity',
    fix: 'write links as ENT<n>:<role>, each entity once',
    template: '--link {text} must be ENT<n>:<role>, e.g. --link ENT1:subject',
    situations: {
      sameRoleTwice: {
        message: 'ENT{entityId} is linked twice with role {role}; give each link once',
        fix: 'remove the repeated --link; each entity and role once',
      },
      twoRoles: {
        message: 'ENT{entityId} is linked twice, as {earlier} and as {role}; link an entity once per memory',
        fix: 'keep one --link for that entity, with the role it plays in this memory',
      },
    },
  },
  VALUE_WITHOUT_PREDICATE: {
    code: 'MIRA_ERR_MEMORY_VALUE_WITHOUT_PREDICATE',
    message: 'a memory has a value but no predicate',
    fix: 'give --predicate with --value',
    template: 'a value needs a predicate; add --predicate <token>',
  },
  BACKEND: {
    code: 'MIRA_ERR_MEMORY_BACKEND',
    message: 'the memory database failed; the write was rolled back',
    fix: 'read the cause on stderr (I/O, lock timeout); try again',
    situations: {
      failed: {
        message: 'the memory database failed and nothing was written: {reason}',
        fix: 'read the cause on stderr (I/O error, disk full, lock timeout), fix it, then try again',
      },
      close: {
        message: "closing the memory store's connections failed: {reason}",
        fix: 'nothing to do at shutdown; if the cause on stderr is an I/O error, check the disk before the next start',
      },
    },
  },
  NAME_IS_PRONOUN: {
    code: 'MIRA_ERR_MEMORY_NAME_IS_PRONOUN',
    message: 'a pronoun (you, your, me, we…) is not a name: it means whoever speaks or is spoken to',
    fix: 'give the entity\'s own name (to the robot, "you" is the robot already)',
    template:
      '"{display}" is a pronoun: it means whoever speaks or is spoken to, so it cannot be the {what} of one entity; give the entity\'s own name',
  },
  SOURCE_KIND_RESERVED: {
    code: 'MIRA_ERR_MEMORY_SOURCE_KIND_RESERVED',
    message: 'that source kind is written only by the runtime (operator_statement: by remember admission)',
    fix: "give another source kind (console by default); memories from the operator's words come only through remember",
    template:
      'source kind "{token}" is written only by the runtime (remember admits what the operator says; a snapshot is what a sensor saw); give another source kind, e.g. console',
  },
  PROPOSAL_NOT_FOUND: {
    code: 'MIRA_ERR_MEMORY_PROPOSAL_NOT_FOUND',
    message: 'there is no proposal with that ID',
    fix: 'list the pending proposals with memory pending',
    status: 404,
    template: 'there is no proposal {ref}; list them with "memory pending"',
  },
  PROPOSAL_DECIDED: {
    code: 'MIRA_ERR_MEMORY_PROPOSAL_DECIDED',
    message: 'the proposal was already accepted or rejected',
    fix: 'nothing to do; memory pending lists what still awaits a decision',
    status: 409,
    template: '{ref} was already {decision}{result}; nothing changed',
  },
  PROPOSAL_EXPIRED: {
    code: 'MIRA_ERR_MEMORY_PROPOSAL_EXPIRED',
    message: 'the proposal expired before it was accepted; nothing was applied',
    fix: 'reject it, and ask the operator to state it again if it still holds ([memory] proposal_expiry_days sets how long proposals wait)',
    status: 409,
    template:
      '{ref} expired at {expiresAt} and can no longer be accepted; nothing was applied. Reject it with "memory reject {ref}"',
  },
  PROPOSAL_STALE: {
    code: 'MIRA_ERR_MEMORY_PROPOSAL_STALE',
    message: 'the memory the proposal replaces, or its slot, changed since it was proposed; nothing was applied',
    fix: 'look at memory history MEM<n>, then reject the proposal; a new statement from the operator makes a new one',
    status: 409,
    situations: {
      superseded:
        '{ref} replaces {replaced}, which {change} since the proposal; nothing was applied. Reject it with "memory reject {ref}"',
      nameTaken: {
        message:
          '{ref} proposes "{name}", but {holders} {change} that name or alias since the proposal; nothing was applied. Reject it with "memory reject {ref}"',
        fix: 'see who holds the name (memory entity find "<name>"), then reject the proposal; a new statement makes a new one',
      },
    },
  },
  ENTITY_EXISTS: {
    code: 'MIRA_ERR_MEMORY_ENTITY_EXISTS',
    message: 'an entity already has that exact name or alias',
    fix: 'use the existing entity (memory entity find "<name>"), or add it by hand if it is really another one',
    status: 409,
    template: '"{name}" already names {holders}; nothing was proposed',
  },
  NOT_SUPERSEDABLE: {
    code: 'MIRA_ERR_MEMORY_NOT_SUPERSEDABLE',
    message: 'only an active fact or preference with a predicate can be superseded',
    fix: 'check the memory with memory show MEM<n>',
    status: 409,
    template:
      '{ref} is {state} and cannot be superseded; only an active fact or preference with a subject and predicate can',
  },
  POSE_INVALID: {
    code: 'MIRA_ERR_MEMORY_POSE_INVALID',
    message: "a place's pose is malformed or out of range",
    fix: 'give --pose x,y,yaw (metres, metres, degrees), e.g. --pose 3.2,-1.0,90, and --frame a ROS frame name',
    situations: {
      notPose: {
        message: 'a pose is x,y,yaw: metres, metres and degrees as plain numbers, e.g. 3.2,-1.0,90 (got "{text}")',
        fix: 'write --pose x,y,yaw as three plain numbers, e.g. --pose 3.2,-1.0,90',
      },
      frame: {
        message: 'a frame is a ROS frame name (letters, digits, _ and /, e.g. map), not "{frame}"',
        fix: 'give --frame a ROS frame name such as map or odom',
      },
      tooFar: {
        message: "a place is at most {max} m from its frame's origin",
        fix: "check the pose's units: x and y are metres from the frame's origin",
      },
      yaw: {
        message: 'yaw is in degrees, from -360 to 360',
        fix: 'give yaw in degrees from -360 to 360 (90, not 1.57)',
      },
      noPoseSensor: {
        message:
          "--here reads the robot's pose from a sensor of geometry_msgs/msg/PoseWithCovarianceStamped (Nav2's amcl_pose), and this profile has none; add one to its sensors, or give --pose x,y,yaw",
        fix: 'add a sensor of geometry_msgs/msg/PoseWithCovarianceStamped (e.g. amcl_pose) to the profile, or give --pose x,y,yaw',
      },
      noFreshPose: {
        message: '--here needs a fresh pose, and there is none ({why}); wait for localisation, or give --pose x,y,yaw',
        fix: 'wait for localisation to publish a pose (sensors shows its age), or give --pose x,y,yaw',
      },
      placeWithoutPose: {
        message:
          'give the place its pose: --pose x,y,yaw (metres, metres, degrees), e.g. --pose 3.2,-1.0,90, or --here',
        fix: 'add --pose x,y,yaw (or --here) to the place',
      },
      hereAndPose: {
        message: '--here takes the pose and its frame from the robot; give either --here or --pose [--frame], not both',
        fix: 'give either --here or --pose x,y,yaw [--frame], not both',
      },
      noPose: {
        message: 'give the pose: --pose x,y,yaw, e.g. --pose 3.2,-1.0,90',
        fix: 'add --pose x,y,yaw, e.g. --pose 3.2,-1.0,90',
      },
      notPlace: {
        message: '{ref} is a {entityType}, not a place; only a place has a pose',
        fix: 'give a place (an entity of type place), or leave the pose out',
      },
      poseExists: {
        message:
          '{ref} already has its pose ({current}); moving a place is not supported yet: add the new place under another name',
        fix: 'add the new position as a place under another name; moving a place is not supported yet',
      },
    },
  },
  OBJECT_INVALID: {
    code: 'MIRA_ERR_MEMORY_OBJECT_INVALID',
    message: 'an object payload is empty, over the size cap, or of a media type Mira does not keep',
    fix: 'keep an image (image/jpeg, image/png) under [memory] max_object_bytes; nothing was written',
    situations: {
      empty: {
        message: 'the object is empty; nothing was written',
        fix: 'send the image bytes; an empty payload is not kept',
      },
      tooLarge: {
        message:
          'the object is {bytes} bytes, over the cap of {maxBytes} ([memory] max_object_bytes); nothing was written',
        fix: 'send a smaller image (a JPEG at lower quality), or raise [memory] max_object_bytes',
      },
      mediaType: {
        message: 'the media type "{declared}" is not one Mira keeps ({kept}); nothing was written',
        fix: 'send an image/jpeg or image/png',
      },
      notWhatItSays: {
        message: 'the bytes are {sniffed}, not {declared}; nothing was written',
        fix: 'declare the media type the bytes really are, or convert the image',
      },
    },
  },
  OBJECT_MISSING: {
    code: 'MIRA_ERR_MEMORY_OBJECT_MISSING',
    message: "a memory's object is not in the object store",
    fix: 'restore the objects directory beside the database from a backup; the memory itself is intact',
    status: 404,
    situations: {
      objectStore: {
        message: "{ref}'s object sha256:{sha256} is not in the object store of {location}",
        fix: 'restore the objects directory beside the database from a backup; the memory itself is intact',
      },
      copyUnreadable: {
        message: 'the memory to copy refers to {count} objects it cannot read; nothing was copied',
        fix: 'restore the objects directory of the source database from a backup, then copy again',
      },
      copyObjectMissing: {
        message: 'object sha256:{sha256} is not in {root}; nothing was copied',
        fix: 'restore that object into the objects directory the message names from a backup, then copy again',
      },
    },
  },
  OBJECT_CORRUPT: {
    code: 'MIRA_ERR_MEMORY_OBJECT_CORRUPT',
    message: "an object's bytes do not match its SHA-256 digest",
    fix: 'restore the object from a backup; it was not returned, and nothing was changed',
    status: 500,
    template: 'object sha256:{sha256} ({where}) has changed: its bytes hash to {actual}…; it was not returned',
  },
  SNAPSHOT_UNAVAILABLE: {
    code: 'MIRA_ERR_MEMORY_SNAPSHOT_UNAVAILABLE',
    message: 'there is no camera frame to keep, or no image to show',
    fix: "check the camera's topic with sensors, name the camera with --camera, or pick a memory that keeps an image",
    status: 404,
    situations: {
      noCamera: {
        message: 'this profile has no camera (a sensor of sensor_msgs/msg/CompressedImage); add one to its sensors',
        fix: 'add a camera sensor (sensor_msgs/msg/CompressedImage) to the profile',
      },
      whichCamera: {
        message: 'this profile has {count} cameras ({names}); say which with --camera <name>',
        fix: 'add --camera <name> with one of the cameras the message lists',
      },
      unknownCamera: {
        message: 'there is no camera "{name}"; the cameras are {names}',
        fix: 'give --camera one of the camera names the message lists',
      },
      noFrame: {
        message: 'camera {id} has sent no JPEG or PNG frame yet; check its topic, or wait a moment',
        fix: "check the camera's topic (sensors shows when it last sent), or wait a moment and try again",
      },
      staleFrame: {
        message: "camera {id}'s latest frame is {age} s old (stale after {staleAfter} s); nothing was kept",
        fix: 'check that the camera still publishes (sensors shows its age), then try again',
      },
      noEntity: {
        message: '{ref} is about no entity, so a snapshot of it would be about nothing; give ENT<n>',
        fix: 'snapshot an entity (memory snapshot ENT<n>), or a memory linked to one',
      },
      noImageHint: {
        message: '{ref} keeps no image; memory show {ref} lists its payloads',
        fix: 'pick a memory that keeps an image; memory show lists its payloads',
      },
      noImage: {
        message: '{ref} keeps no image',
        fix: 'pick a memory that keeps an image',
      },
    },
  },
  OBJECTS_SHARED: {
    code: 'MIRA_ERR_MEMORY_OBJECTS_SHARED',
    message: 'the objects directory beside the database belongs to another memory database',
    fix: 'give each memory database a directory of its own (database_path); nothing was changed',
    template:
      '{root} holds the objects of {owner}, not of {database}; give each memory database a directory of its own',
  },
  SNAPSHOT_INTO_OBJECTS: {
    code: 'MIRA_ERR_MEMORY_SNAPSHOT_INTO_OBJECTS',
    message:
      "the path lies inside the memory's objects directory, which holds the store's own files; nothing was written",
    fix: 'save the image somewhere else',
    template:
      "{path} lies inside {root}, the memory's objects directory, which holds the store's own files; nothing was written (--force never writes there). Save it somewhere else",
  },
  CLOSED: {
    code: 'MIRA_ERR_MEMORY_CLOSED',
    message: 'the memory store is closed',
    fix: 'nothing to do during shutdown; otherwise report it',
    situations: {
      closed: {
        message: 'the memory store is closed',
        fix: 'nothing to do during shutdown; otherwise report it with the log on stderr',
      },
    },
  },
});

/** The persistent-memory codes by key. */
export const MemoryErrorCodes = MemoryErrors.codes;
/** Every error code of the persistent-memory contract. */
export type MemoryErrorCode = (typeof MemoryErrorCodes)[keyof typeof MemoryErrorCodes];
