package org.salgate.agent.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.salgate.model.SlowConsumerPolicy;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What {@code --print-config} prints: every option the file may set with the value the agent runs
 * with, as YAML a configuration file can hold, secrets masked, and where each set value came from.
 */
final class EffectiveConfig {

    /** Options whose value may hold a secret (a URL's password), masked when printed. */
    static final Set<String> MASKED_URLS = Set.of("mqtt-url", "influx-url");

    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .build();

    private EffectiveConfig() {}

    static String yaml(CommandSpec spec, Settings settings) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map.Entry<String, OptionSpec> option : Settings.configurable(spec).entrySet()) {
            Object value = printable(option.getValue().getValue());
            if (value instanceof String text && MASKED_URLS.contains(option.getKey())) {
                value = Settings.maskPassword(text);
            }
            values.put(option.getKey(), value);
        }
        StringBuilder text = new StringBuilder("# The agent's effective configuration (the command line wins over"
                + " SALGATE_* variables, which win over the files, which win over the defaults).\n");
        text.append("# Files read: ").append(settings.files().isEmpty() ? "none"
                : settings.files().stream().map(Path::toString).collect(Collectors.joining(", "))).append('\n');
        settings.origins().forEach((key, origin) -> text.append("#   ").append(key).append(": from ").append(origin)
                .append('\n'));
        try {
            text.append(YAML.writeValueAsString(values));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the configuration as YAML: " + e.getMessage(), e);
        }
        return text.toString();
    }

    /** An option's value as YAML shows it: a name for a policy, text for a path, lists and maps of text. */
    private static Object printable(Object value) {
        if (value instanceof SlowConsumerPolicy policy) {
            return policy.wireName();
        }
        if (value instanceof Path path) {
            return path.toString();
        }
        if (value instanceof Collection<?> list) {
            return list.stream().map(EffectiveConfig::printable).toList();
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> printed = new LinkedHashMap<>();
            map.forEach((k, v) -> printed.put(String.valueOf(k), printable(v)));
            return printed;
        }
        return value;
    }
}
