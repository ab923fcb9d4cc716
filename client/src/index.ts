// @trip-itinerary/client: a typed client of the Trip Itinerary Service for browsers and Node 20.
export { createTripClient, webSocketUrlOf, type TripClient, type TripClientOptions } from './tripClient.js';
export * from './http/index.js';
export * from './realtime/index.js';
