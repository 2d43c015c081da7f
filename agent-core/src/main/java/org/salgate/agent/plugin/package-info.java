/**
 * The protocol sub-layer's plugin discovery: {@link org.salgate.agent.plugin.PluginRegistry}
 * finds {@link org.salgate.plugin.spi.SensorPlugin}s with {@link java.util.ServiceLoader} and
 * loads new ones from a jar or class directory at run time.
 */
package org.salgate.agent.plugin;
