package org.salgate.client.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Reads a document named on the command line; a file that cannot be read is a usage error. */
final class DocumentFile {

    private DocumentFile() {}

    static String read(CommandLine cmd, Path file, String what) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            String why = e instanceof NoSuchFileException ? "no such file"
                    : e instanceof AccessDeniedException ? "permission denied"
                    : String.valueOf(e.getMessage());
            throw new ParameterException(cmd, "cannot read the " + what + " file '" + file + "': " + why);
        }
    }
}
