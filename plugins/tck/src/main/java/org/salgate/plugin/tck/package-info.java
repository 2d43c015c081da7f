/**
 * The conformance suite every sensor plugin passes, driven through a real agent.
 *
 * <p>{@link org.salgate.plugin.tck.AbstractPluginConformanceTest} loads the plugin from the test's
 * class path by its type, in an agent started in-process ({@link org.salgate.plugin.tck.KitAgent})
 * next to a dummy protocol, and checks its lifecycle (each sensor described, its commands listed and
 * read; no thread left once closed; opened again), concurrent callers, bad configurations and
 * arguments out of bounds. {@link org.salgate.plugin.tck.AbstractDevicePluginConformanceTest} adds,
 * for plugins of devices, a device that vanishes and returns and one that never answers. A plugin's
 * test extends one of them and says what it opens, for example:
 *
 * <pre>{@code
 * class DummyPluginConformanceTest extends AbstractPluginConformanceTest {
 *     protected ProtocolConfig protocol() {
 *         return new ProtocolConfig("dummy", "dummy", "virtual", Map.of("sensors", "3"));
 *     }
 *     protected List<BadConfiguration> badConfigurations() {
 *         return List.of(new BadConfiguration(
 *                 new ProtocolConfig("many", "dummy", "virtual", Map.of("sensors", "100001")), "sensors"));
 *     }
 * }
 * }</pre>
 *
 * The dummy and OS plugins run the suite in this module's own tests: agent-core's tests use them,
 * so they cannot depend on a suite built on agent-core.
 */
package org.salgate.plugin.tck;
