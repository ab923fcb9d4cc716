// @trip-itinerary/client: a typed client of the Trip Itinerary Service for browsers and Node 20.
export * from './http/index.js';
