/**
 * The communication layer: the sensor manager (sensors, descriptions, commands, reads, states)
 * and the protocol manager (plugins bound to endpoints, the platform configuration), with the
 * event bus they report to. This is the generic SAL API behind the agent layer.
 */
package org.salgate.agent.core;
