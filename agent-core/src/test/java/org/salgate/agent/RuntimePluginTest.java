package org.salgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.agent.core.CallException;
import org.salgate.agent.core.EventBus;
import org.salgate.agent.core.ProtocolManager;
import org.salgate.agent.core.SensorManager;
import org.salgate.agent.endpoint.Endpoints;
import org.salgate.agent.plugin.PluginDirectories;
import org.salgate.agent.plugin.PluginRegistry;
import org.salgate.agent.testing.PluginBuilder;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.model.ErrorCode;
import org.salgate.model.Event;
import org.salgate.model.Reading;
import org.salgate.model.Value;

/** Loading plugins into a running communication layer from a class directory or a jar. */
@Timeout(60)
class RuntimePluginTest {

    private final List<Event> events = new ArrayList<>();
    private PluginRegistry plugins;
    private SensorManager sensors;
    private ProtocolManager protocols;

    @TempDir
    Path dir;

    @BeforeEach
    void setUp() {
        EventBus bus = new EventBus();
        bus.subscribe(this, events::add);
        Endpoints endpoints = Endpoints.standard();
        plugins = PluginRegistry.load(getClass().getClassLoader(), endpoints);
        sensors = new SensorManager(bus, (id, why) -> { });
        protocols = new ProtocolManager(plugins, endpoints, sensors, bus,
                PluginDirectories.of(List.of(dir)));
    }

    @AfterEach
    void tearDown() {
        protocols.close();
        plugins.close();
    }

    private static PlatformConfig platform(String name, String type, Map<String, String> params) {
        return new PlatformConfig(List.of(new ProtocolConfig(name, type, "virtual", params)));
    }

    @Test
    void pluginFromAClassDirectoryIsLoadedAndServesSensors() throws Exception {
        Path classes = PluginBuilder.classDirectory(dir, "extdir");
        assertTrue(plugins.find("extdir").isEmpty());
        protocols.add(platform("ext", "extdir", Map.of("plugin.path", classes.toString())));
        Reading r = sensors.execute("EXTDIR_0", "read", Map.of());
        assertEquals(Value.of(7.0), r.value());
        assertTrue(events.stream().anyMatch(e -> e.type() == Event.Type.PROTOCOL_ADDED && e.subject().equals("ext")));
        // A second protocol of the same type, from the same path, reuses the loaded plugin.
        CallException taken = assertThrows(CallException.class,
                () -> protocols.add(platform("ext2", "extdir", Map.of("plugin.path", classes.toString()))));
        assertEquals(ErrorCode.CONFLICT, taken.code(), "its sensor id is taken: " + taken.getMessage());
        protocols.remove("ext");
        assertTrue(events.stream().anyMatch(e -> e.type() == Event.Type.SENSOR_REMOVED
                && e.subject().equals("EXTDIR_0")));
        protocols.add(platform("ext2", "extdir", Map.of("plugin.path", classes.toString())));
    }

    @Test
    void pluginFromAJarIsLoaded() throws Exception {
        Path jar = PluginBuilder.jar(PluginBuilder.classDirectory(dir, "extjar"), dir.resolve("ext.jar"));
        protocols.add(platform("ext", "extjar", Map.of("plugin.jar", jar.toString())));
        assertEquals(Value.of(7.0), sensors.execute("EXTJAR_0", "read", Map.of()).value());
        assertEquals(jar.toAbsolutePath().normalize().toString(), plugins.types().get("extjar"));
    }

    @Test
    void badPluginPathsGetClearErrorsAndLoseNothing() throws Exception {
        protocols.add(platform("test", "test", Map.of("sensors", "1")));
        CallException missing = assertThrows(CallException.class, () -> protocols.add(
                platform("x", "ext", Map.of("plugin.jar", dir.resolve("nope.jar").toString()))));
        assertEquals(ErrorCode.PERMISSION_DENIED, missing.code());
        assertTrue(missing.getMessage().contains("nope.jar"), missing.getMessage());

        java.nio.file.Files.createDirectories(dir.resolve("empty"));
        CallException empty = assertThrows(CallException.class,
                () -> protocols.add(platform("x", "ext", Map.of("plugin.jar", dir.resolve("empty").toString()))));
        assertEquals(ErrorCode.INVALID_ARGUMENT, empty.code());

        Path classes = PluginBuilder.classDirectory(dir.resolve("a"), "exta");
        CallException wrongType = assertThrows(CallException.class,
                () -> protocols.add(platform("x", "other", Map.of("plugin.jar", classes.toString()))));
        assertEquals(ErrorCode.UNKNOWN_PROTOCOL, wrongType.code());
        assertTrue(wrongType.getMessage().contains("exta"), wrongType.getMessage());

        CallException shadow = assertThrows(CallException.class,
                () -> protocols.add(platform("x", "test", Map.of("plugin.jar", classes.toString()))));
        assertEquals(ErrorCode.CONFLICT, shadow.code(), shadow.getMessage());

        assertEquals(1, protocols.list().size());
        assertEquals(Value.of(42.0), sensors.execute("T_0", "read", Map.of()).value());
    }

    @Test
    void withoutPluginDirectoriesNothingIsLoadedAtRunTime() throws Exception {
        ProtocolManager locked = new ProtocolManager(plugins, Endpoints.standard(), sensors, new EventBus(),
                PluginDirectories.none());
        Path classes = PluginBuilder.classDirectory(dir, "extoff");
        CallException e = assertThrows(CallException.class,
                () -> locked.add(platform("x", "extoff", Map.of("plugin.jar", classes.toString()))));
        assertEquals(ErrorCode.PERMISSION_DENIED, e.code());
        assertTrue(e.getMessage().contains("loads no plugins at run time") && e.getMessage().contains("--plugin-dir"),
                e.getMessage());
        assertTrue(plugins.find("extoff").isEmpty());
    }

    @Test
    void pluginPathsOutsideThePluginDirectoriesGetOneRefusalWhetherOrNotTheyExist(@TempDir Path outside)
            throws Exception {
        protocols.add(platform("test", "test", Map.of("sensors", "1")));
        Path elsewhere = PluginBuilder.jar(PluginBuilder.classDirectory(outside, "extout"), outside.resolve("out.jar"));
        Path link = java.nio.file.Files.createSymbolicLink(dir.resolve("link.jar"), elsewhere);
        List<String> named = List.of(elsewhere.toString(), outside.resolve("missing.jar").toString(),
                dir.resolve("../" + outside.getFileName() + "/out.jar").toString(), "../out.jar", link.toString(),
                "link.jar", "/etc/passwd", "/nonexistent/x.jar", dir.resolve("missing.jar").toString(), "\u0000");
        for (String path : named) {
            CallException e = assertThrows(CallException.class,
                    () -> protocols.add(platform("x", "extout", Map.of("plugin.jar", path))));
            assertEquals(ErrorCode.PERMISSION_DENIED, e.code(), path);
            assertEquals("protocol x: plugin path '" + path + "' is not a plugin in this agent's plugin directories "
                    + "(--plugin-dir); put the plugin jar there and name it by its file name", e.getMessage());
        }
        assertTrue(plugins.find("extout").isEmpty());
        assertEquals(Value.of(42.0), sensors.execute("T_0", "read", Map.of()).value());
    }

    @Test
    void aRelativePluginPathIsTakenInsideThePluginDirectory() throws Exception {
        PluginBuilder.jar(PluginBuilder.classDirectory(dir.resolve("src"), "extrel"), dir.resolve("rel.jar"));
        protocols.add(platform("ext", "extrel", Map.of("plugin.jar", "rel.jar")));
        assertEquals(Value.of(7.0), sensors.execute("EXTREL_0", "read", Map.of()).value());
    }

    @Test
    void addingSeveralProtocolsIsAllOrNothing() throws Exception {
        PlatformConfig two = new PlatformConfig(List.of(
                new ProtocolConfig("a", "test", "virtual", Map.of("sensors", "1", "prefix", "A")),
                new ProtocolConfig("b", "test", "virtual", Map.of("failOpen", "true"))));
        CallException e = assertThrows(CallException.class, () -> protocols.add(two));
        assertEquals(ErrorCode.PLUGIN_FAILURE, e.code());
        assertTrue(protocols.list().isEmpty());
        assertTrue(sensors.list(false).isEmpty());
    }
}
