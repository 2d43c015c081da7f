package org.salgate.agent.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One YAML configuration file of the agent, read as its top-level keys in order, each with the line
 * it is on: a mapping of option names (without the dashes) to values.
 */
final class ConfigFile {

    private static final YAMLFactory YAML = new YAMLFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper(YAML);

    /** A key of a file with its value; {@code where} is FILE:LINE. */
    record Entry(String key, JsonNode value, Path file, int line) {
        String where() {
            return file + ":" + line;
        }
    }

    private ConfigFile() {}

    /**
     * The entries of {@code file} in order; what cannot be read is said in {@code problems}, one line
     * each, naming the file and line.
     */
    static List<Entry> read(Path file, List<String> problems) {
        List<Entry> entries = new ArrayList<>();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            problems.add("cannot read the configuration file " + file + ": there is no such file; create it or"
                    + " correct the path");
            return entries;
        } catch (AccessDeniedException e) {
            problems.add("cannot read the configuration file " + file + ": permission denied; let the agent's"
                    + " user read it");
            return entries;
        } catch (IOException e) {
            problems.add("cannot read the configuration file " + file + ": "
                    + (Files.isDirectory(file) ? "it is a directory" : e.getMessage()));
            return entries;
        }
        try (JsonParser p = YAML.createParser(bytes)) {
            JsonToken token = p.nextToken();
            if (token == null) {
                return entries; // an empty file (or only comments) sets nothing
            }
            if (token != JsonToken.START_OBJECT) {
                problems.add(file + ":" + p.currentTokenLocation().getLineNr() + ": the configuration must be a"
                        + " mapping of option names to values, such as 'port: 7431'");
                return entries;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                int line = p.currentTokenLocation().getLineNr();
                p.nextToken();
                JsonNode value = MAPPER.readTree(p);
                entries.stream().filter(e -> e.key().equals(key)).findFirst().ifPresent(e -> problems.add(
                        "key '" + key + "' at " + file + ":" + line + " is given already at line " + e.line()
                                + "; keep one"));
                entries.add(new Entry(key, value, file, line));
            }
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            problems.add(file + ":" + (at == null ? "?" : at.getLineNr()) + ": not valid YAML: "
                    + e.getOriginalMessage().lines().findFirst().orElse(""));
        } catch (IOException e) {
            problems.add("cannot read the configuration file " + file + ": " + e.getMessage());
        }
        return entries;
    }

    /** The {@code *.yaml} and {@code *.yml} files of a directory in name order. */
    static List<Path> fragments(Path dir, List<String> problems) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches(".*\\.ya?ml") && Files.isRegularFile(f))
                    .sorted().toList();
        } catch (IOException e) {
            problems.add("cannot list the configuration directory " + dir + ": " + e.getMessage());
            return List.of();
        }
    }
}
