package org.salgate.sensorml;

import java.io.InputStream;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * The compiled schemas, each built once on first use and shared: a {@link Schema} is immutable
 * and thread-safe, and compiling SensorML (which pulls GML 3.2.1, SWE Common 2.0 and ISO 19139)
 * takes a good fraction of a second.
 */
final class Schemas {

    static final String SENSORML_URL = "http://schemas.opengis.net/sensorML/2.0/sensorML.xsd";
    static final String CML_URL = "urn:salgate:schema:cml-1.0.xsd";
    static final String PCML_URL = "urn:salgate:schema:pcml-1.0.xsd";

    private Schemas() {}

    /** The official OGC SensorML 2.0 schema. */
    static Schema sensorMl() {
        return SensorMlHolder.SCHEMA;
    }

    /** The CML 1.0 schema of this module. */
    static Schema cml() {
        return CmlHolder.SCHEMA;
    }

    /** The PCML 1.0 schema of this module, with the SensorML 2.0 schema it imports for added sensors. */
    static Schema pcml() {
        return PcmlHolder.SCHEMA;
    }

    private static final class SensorMlHolder {
        static final Schema SCHEMA = compile(SENSORML_URL);
    }

    private static final class CmlHolder {
        static final Schema SCHEMA = compile(CML_URL);
    }

    private static final class PcmlHolder {
        static final Schema SCHEMA = compile(PCML_URL);
    }

    /** Compiles the schema at {@code officialUrl} with every reference resolved from the class path. */
    static Schema compile(String officialUrl) {
        ClasspathSchemaResolver resolver = new ClasspathSchemaResolver(Schemas.class.getClassLoader());
        SchemaFactory factory = SchemaFactory.newDefaultInstance();
        try {
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setResourceResolver(resolver);
            factory.setErrorHandler(new FailFast());
            try (InputStream in = resolver.open(officialUrl)) {
                return factory.newSchema(new StreamSource(in, officialUrl));
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot compile schema " + officialUrl + ": " + e.getMessage(), e);
        }
    }

    /** Schema warnings are ignored; any error in a bundled schema is a packaging bug. */
    private static final class FailFast implements ErrorHandler {
        @Override public void warning(SAXParseException e) { }
        @Override public void error(SAXParseException e) throws SAXException { throw e; }
        @Override public void fatalError(SAXParseException e) throws SAXException { throw e; }
    }
}
