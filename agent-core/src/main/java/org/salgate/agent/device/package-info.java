/**
 * The device runtime: the channels of a device protocol served as sensors
 * ({@link org.salgate.agent.device.Channels}), and the lane that serializes every request to a
 * device whose protocol takes one at a time, with its deadlines, batched reads and reconnects
 * ({@link org.salgate.agent.device.DeviceLane}).
 */
package org.salgate.agent.device;
