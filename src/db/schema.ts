// The SQLite schema (drizzle). Instants are epoch milliseconds, calendar dates 'YYYY-MM-DD' text,
// lists JSON text. Keyset paging relies on the (owner, sort field, id) indexes below.
// schema.pg.ts is the same schema for PostgreSQL: a change here is made there too, and
// test/types/schemaParity.ts fails to compile while their row types differ.
import { sql } from 'drizzle-orm';
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const members = sqliteTable(
  'member',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    email: text('email').notNull(),
    name: text('name').notNull(),
    imageUrl: text('image_url'),
    provider: text('provider').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /** the OpenID Connect account (issuer, subject) of the member; null for dev-login and token-tool members */
    oidcIssuer: text('oidc_issuer'),
    oidcSubject: text('oidc_subject'),
  },
  // A provider's member is its account, never its e-mail (two accounts may share one, and it may
  // change); members without one (dev-login, the token tool) are identified by e-mail.
  (t) => [
    uniqueIndex('member_local_email_unique')
      .on(t.email)
      .where(sql`oidc_subject IS NULL`),
    uniqueIndex('member_oidc_identity_unique').on(t.oidcIssuer, t.oidcSubject),
  ],
);

export const authSessions = sqliteTable(
  'auth_session',
  {
    id: text('id').primaryKey(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    /** jti of the only refresh token of this session that may still be used */
    refreshJti: text('refresh_jti').notNull(),
    /**
     * jti of the refresh token rotated last, and when: for REFRESH_REUSE_GRACE_SECONDS after
     * rotatedAt it gets the pair of refreshJti again (issued at rotatedAt, so the same tokens)
     */
    previousRefreshJti: text('previous_refresh_jti'),
    rotatedAt: integer('rotated_at'),
    /** decided at sign-in (src/auth/roles.ts); dev-login sessions are always MEMBER */
    role: text('role', { enum: ['MEMBER', 'ADMIN'] })
      .notNull()
      .default('MEMBER'),
    revokedAt: integer('revoked_at'),
    revokedReason: text('revoked_reason'),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  // The purge deletes by end time (expiry or revocation) without scanning every session.
  (t) => [
    index('auth_session_member_idx').on(t.memberId),
    index('auth_session_expires_idx').on(t.expiresAt),
    index('auth_session_revoked_idx').on(t.revokedAt),
  ],
);

/** An OpenID Connect sign-in between its start and the provider's redirect back (auth/oidcSignIn.ts). */
export const oidcPendingLogins = sqliteTable(
  'oidc_pending_login',
  {
    /** SHA-256 of the browser's oidc_login cookie: the row is found only by that browser */
    id: text('id').primaryKey(),
    state: text('state').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    returnTo: text('return_to').notNull(),
    /** a hash of the client address that started it: pending sign-ins are bounded per address */
    clientKey: text('client_key').notNull().default(''),
    /** the page's codeChallenge (base64url SHA-256 of its verifier); null: the code is bound to the cookie */
    codeChallenge: text('code_challenge'),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('oidc_pending_login_expires_idx').on(t.expiresAt)],
);

/** The one-time code a completed sign-in hands to the browser, for the session it created. */
export const oidcSignInCodes = sqliteTable(
  'oidc_sign_in_code',
  {
    /** SHA-256 of the code */
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    /** who may exchange it: the page with the verifier of this challenge, or else the browser whose oidc_login cookie hashes to browserKeyHash */
    codeChallenge: text('code_challenge'),
    browserKeyHash: text('browser_key_hash').notNull().default(''),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('oidc_sign_in_code_expires_idx').on(t.expiresAt)],
);

export const tripPlans = sqliteTable(
  'trip_plan',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    region: text('region').notNull(),
    startDate: text('start_date').notNull(),
    endDate: text('end_date').notNull(),
    duration: integer('duration').notNull(),
    peopleCount: integer('people_count').notNull(),
    themes: text('themes', { mode: 'json' }).$type<string[]>().notNull(),
    transportation: text('transportation').notNull(),
    generationStatus: text('generation_status').notNull(),
    failureCode: text('failure_code'),
    imageUrl: text('image_url'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    // The plan row is the generation job (docs/design/scale-out.md, "Generation jobs on the plan row"): the
    // lease-based runner claims it, renews the lease with heartbeats and fences every write with
    // the attempt.
    /** +1 on every start: the run the plan's realtime log belongs to */
    genRun: integer('gen_run').notNull().default(0),
    /** +1 on every claim: the fencing token every write of the owner checks */
    genAttempt: integer('gen_attempt').notNull().default(0),
    /** the instance running the generation; null when nobody holds it */
    genOwner: text('gen_owner'),
    genLeaseUntil: integer('gen_lease_until'),
    genHeartbeatAt: integer('gen_heartbeat_at'),
    /** the W3C traceparent of the start request (null: tracing was off): the run, on any instance, continues its trace */
    genTraceparent: text('gen_traceparent'),
  },
  (t) => [
    index('trip_plan_member_created_idx').on(t.memberId, t.createdAt, t.id),
    index('trip_plan_member_start_idx').on(t.memberId, t.startDate, t.id),
    index('trip_plan_status_idx').on(t.generationStatus),
    // The runner's claim and the sweeper look only at GENERATING plans, by lease expiry.
    index('trip_plan_generating_idx')
      .on(t.generationStatus, t.genLeaseUntil)
      .where(sql`${t.generationStatus} = 'GENERATING'`),
  ],
);

export const chatRooms = sqliteTable(
  'chat_room',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    tripPlanId: integer('trip_plan_id')
      .notNull()
      .references(() => tripPlans.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
    // The room's turn (chats/chatTurns.ts): who answers its pending messages now.
    /** a random token of the claim that holds the turn; null when nobody does */
    turnToken: text('turn_token'),
    /** when the turn runs out unless its holder renews it */
    turnUntil: integer('turn_until'),
  },
  (t) => [uniqueIndex('chat_room_trip_plan_idx').on(t.tripPlanId), index('chat_room_member_idx').on(t.memberId)],
);

export const chatMessages = sqliteTable(
  'chat_message',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    chatRoomId: integer('chat_room_id')
      .notNull()
      .references(() => chatRooms.id, { onDelete: 'cascade' }),
    messageType: text('message_type', { enum: ['USER', 'ASSISTANT'] }).notNull(),
    content: text('content').notNull(),
    contentType: text('content_type', { enum: ['TEXT'] })
      .notNull()
      .default('TEXT'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('chat_message_room_idx').on(t.chatRoomId, t.id)],
);

/** A USER message not answered yet, with what its answer needs besides the text (chats/chatTurns.ts). */
export const chatPendingMessages = sqliteTable(
  'chat_pending_message',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
    chatRoomId: integer('chat_room_id')
      .notNull()
      .references(() => chatRooms.id, { onDelete: 'cascade' }),
    /** the stop the client selected (ChatMessageRequest.scheduledPlaceId); no reference: the stop may be gone by the message's turn */
    scheduledPlaceId: integer('scheduled_place_id'),
  },
  // A table-level key: SQLite's INTEGER PRIMARY KEY column would make message_id optional in inserts.
  (t) => [primaryKey({ columns: [t.messageId] }), index('chat_pending_message_room_idx').on(t.chatRoomId, t.messageId)],
);

export const places = sqliteTable(
  'place',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    key: text('key').notNull().unique(),
    region: text('region').notNull(),
    name: text('name').notNull(),
    nameKo: text('name_ko'),
    address: text('address').notNull(),
    latitude: real('latitude').notNull(),
    longitude: real('longitude').notNull(),
    description: text('description').notNull(),
    imageUrl: text('image_url'),
    operatingHours: text('operating_hours'),
    holidayInfo: text('holiday_info'),
    isMustVisit: integer('is_must_visit', { mode: 'boolean' }).notNull(),
    themes: text('themes', { mode: 'json' }).$type<string[]>().notNull(),
    kind: text('kind', { enum: ['SIGHT', 'RESTAURANT'] }).notNull(),
    visitMinutes: integer('visit_minutes').notNull(),
  },
  (t) => [index('place_region_idx').on(t.region)],
);

export const dailyPlans = sqliteTable(
  'daily_plan',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tripPlanId: integer('trip_plan_id')
      .notNull()
      .references(() => tripPlans.id, { onDelete: 'cascade' }),
    dayNumber: integer('day_number').notNull(),
    date: text('date').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    /** saved by a generation whose chat summary of the day is not stored yet (a resumed run writes it) */
    summaryPending: integer('summary_pending', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [uniqueIndex('daily_plan_trip_day_idx').on(t.tripPlanId, t.dayNumber)],
);

export const scheduledPlaces = sqliteTable(
  'scheduled_place',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    dailyPlanId: integer('daily_plan_id')
      .notNull()
      .references(() => dailyPlans.id, { onDelete: 'cascade' }),
    visitOrder: integer('visit_order').notNull(),
    category: text('category', { enum: ['MORNING', 'AFTERNOON', 'EVENING'] }).notNull(),
    travelTime: integer('travel_time'),
    travelDistance: integer('travel_distance'),
    transportation: text('transportation').notNull(),
    placeId: integer('place_id')
      .notNull()
      .references(() => places.id),
  },
  (t) => [uniqueIndex('scheduled_place_day_order_idx').on(t.dailyPlanId, t.visitOrder)],
);

export const promptTemplates = sqliteTable(
  'ai_prompt_template',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    promptType: text('prompt_type', { enum: ['SYSTEM', 'USER'] }).notNull(),
    agentType: text('agent_type', { enum: ['TRIP_AGENT', 'CHAT_AGENT', 'PLACE_SUMMARY_AGENT'] }).notNull(),
    prompt: text('prompt').notNull(),
    isActive: integer('is_active', { mode: 'boolean' }).notNull(),
    description: text('description'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('ai_prompt_template_created_idx').on(t.createdAt, t.id),
    // At most one active template per (promptType, agentType).
    uniqueIndex('ai_prompt_template_active_idx')
      .on(t.promptType, t.agentType)
      .where(sql`${t.isActive} = 1`),
  ],
);

/**
 * Written and deleted by the readiness probe (/readyz): a row of one page, so a probe commit needs a
 * page and writes the WAL like a real write does. Always empty between probes.
 */
export const storageProbe = sqliteTable('storage_probe', {
  id: integer('id').primaryKey(),
  pad: blob('pad', { mode: 'buffer' }).notNull(),
});

/**
 * One row, written by the migration that made the table: a random id of this database. What lives
 * outside the database but is keyed by its ids (the Redis plan logs and control channels) is keyed
 * by it too, so a Redis that outlives a database never hands an old plan's log to a new plan of
 * the same id.
 */
export const databaseIdentity = sqliteTable('database_identity', {
  id: text('id').primaryKey(),
});

/**
 * Where the plan logs behind STOMP began (delivery/logStarts.ts), kept where it outlives them: a
 * log in memory or in Redis may be lost (a restart, a Redis without persistence), and then this
 * row says that it had messages, so a new epoch after the loss starts past offset 1 and a replay
 * of it is not recovered. `stream` is the log (`plan:42`, `room:7`), `run` the newest generation
 * run that began writing to it (0: only messages outside a run so far).
 */
export const planLogStarts = sqliteTable('plan_log_start', {
  stream: text('stream').primaryKey(),
  run: integer('run').notNull(),
});
