package org.salgate.transport.tls;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates and keys: PEM reading and writing, SHA-256 fingerprints, and key pairs with
 * certificates made here (a self-signed one for trying things out, and the CAs of tests). Bouncy
 * Castle builds and parses the certificates; the JDK's providers make the keys and signatures.
 */
public final class Certificates {

    private static final String SIGNATURE = "SHA256withECDSA";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Certificates() {}

    /** A private key and its certificate chain, the key's own certificate first. */
    public record KeyAndChain(PrivateKey key, List<X509Certificate> chain) {
        public KeyAndChain {
            chain = List.copyOf(chain);
            if (chain.isEmpty()) {
                throw new IllegalArgumentException("a certificate chain needs at least one certificate");
            }
        }

        /** The key's own certificate. */
        public X509Certificate certificate() {
            return chain.get(0);
        }
    }

    /** A new EC P-256 key pair. */
    public static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot make EC P-256 keys: " + e.getMessage(), e);
        }
    }

    /**
     * Makes a certificate for {@code keys}' public key, signed by {@code issuerKey}.
     *
     * @param subject the subject's distinguished name, such as {@code CN=salgate}
     * @param keys the key pair the certificate is for
     * @param issuer the issuer's certificate, or null for a self-signed one
     * @param issuerKey the key that signs: the issuer's, or {@code keys.getPrivate()} when self-signed
     * @param notBefore start of validity
     * @param notAfter end of validity
     * @param ca whether the certificate may sign others
     * @param names host names and IP addresses the certificate is for (subject alternative names)
     */
    public static X509Certificate issue(String subject, KeyPair keys, X509Certificate issuer, PrivateKey issuerKey,
                                        Instant notBefore, Instant notAfter, boolean ca, List<String> names) {
        try {
            X500Name issuerName = issuer == null ? new X500Name(subject)
                    : X500Name.getInstance(issuer.getSubjectX500Principal().getEncoded());
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuerName,
                    new BigInteger(128, RANDOM), Date.from(notBefore), Date.from(notAfter), new X500Name(subject),
                    keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            builder.addExtension(Extension.keyUsage, true, ca
                    ? new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature)
                    : new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
            if (!names.isEmpty()) {
                List<GeneralName> alternatives = new ArrayList<>();
                for (String name : names) {
                    boolean ip = name.matches("[0-9.]+") || name.contains(":");
                    alternatives.add(new GeneralName(ip ? GeneralName.iPAddress : GeneralName.dNSName, name));
                }
                builder.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(alternatives.toArray(GeneralName[]::new)));
            }
            ContentSigner signer = new JcaContentSignerBuilder(SIGNATURE).build(issuerKey);
            X509CertificateHolder holder = builder.build(signer);
            return new JcaX509CertificateConverter().getCertificate(holder);
        } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot make a certificate for " + subject + ": " + e.getMessage(), e);
        }
    }

    /**
     * A new key pair and a self-signed certificate for {@code names}, valid from an hour ago for
     * {@code days} days: what {@code --tls-self-signed} serves.
     */
    public static KeyAndChain selfSigned(List<String> names, int days) {
        Instant now = Instant.now();
        return selfSigned(names, now.minusSeconds(3600), now.plusSeconds(86_400L * days));
    }

    /** A new key pair and a self-signed certificate for {@code names}, valid between the two instants. */
    public static KeyAndChain selfSigned(List<String> names, Instant notBefore, Instant notAfter) {
        KeyPair keys = newKeyPair();
        X509Certificate certificate = issue("CN=salgate self-signed", keys, null, keys.getPrivate(),
                notBefore, notAfter, false, names);
        return new KeyAndChain(keys.getPrivate(), List.of(certificate));
    }

    /** The SHA-256 fingerprint of a certificate's DER encoding, as upper-case hex pairs joined by colons. */
    public static String fingerprint(X509Certificate certificate) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
        } catch (CertificateEncodingException e) {
            throw new IllegalArgumentException("cannot encode the certificate: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    /**
     * Parses a SHA-256 fingerprint given as 64 hex digits, with or without colons (as
     * {@link #fingerprint} and {@code openssl x509 -fingerprint -sha256} print it), optionally
     * prefixed {@code sha256:} or {@code SHA256:}.
     *
     * @throws IllegalArgumentException saying what a fingerprint looks like
     */
    public static byte[] parseFingerprint(String text) {
        String hex = text.trim();
        if (hex.toLowerCase(Locale.ROOT).startsWith("sha256:")) {
            hex = hex.substring("sha256:".length());
        }
        hex = hex.replace(":", "");
        if (hex.length() != 64 || !hex.matches("[0-9a-fA-F]+")) {
            throw new IllegalArgumentException("'" + text + "' is not a SHA-256 fingerprint: expected 32 bytes"
                    + " as 64 hex digits, with or without colons, such as the agent prints at start");
        }
        return HexFormat.of().parseHex(hex);
    }

    /**
     * The DNS names and IP addresses a certificate is for (its subject alternative names of the
     * JDK's types 2 and 7), in its order; none when they cannot be read.
     */
    public static List<String> hostNames(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
            for (List<?> name : alternatives == null ? List.<List<?>>of() : alternatives) {
                if ((name.get(0).equals(2) || name.get(0).equals(7)) && name.get(1) instanceof String value) {
                    names.add(value);
                }
            }
        } catch (CertificateParsingException e) {
            // a certificate whose names cannot be read is for no host
        }
        return names;
    }

    /** Reads every certificate of a PEM file, in file order. */
    public static List<X509Certificate> readCertificates(Path file) throws IOException {
        requireFile(file);
        List<X509Certificate> certificates = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
             PEMParser parser = new PEMParser(reader)) {
            JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
            Object item;
            while ((item = parser.readObject()) != null) {
                if (item instanceof X509CertificateHolder holder) {
                    certificates.add(converter.getCertificate(holder));
                }
            }
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IOException(file + " holds a certificate that cannot be read: " + e.getMessage(), e);
        }
        if (certificates.isEmpty()) {
            throw new IOException(file + " holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        }
        return certificates;
    }

    /** Reads an unencrypted private key from a PEM file: PKCS#8, or a traditional RSA or EC key. */
    public static PrivateKey readPrivateKey(Path file) throws IOException {
        requireFile(file);
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
             PEMParser parser = new PEMParser(reader)) {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            Object item;
            while ((item = parser.readObject()) != null) {
                if (item instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
                if (item instanceof PEMKeyPair pair) {
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
            }
        } catch (RuntimeException e) {
            throw new IOException(file + " holds a private key that cannot be read: " + e.getMessage(), e);
        }
        throw new IOException(file + " holds no unencrypted PEM private key (-----BEGIN PRIVATE KEY-----);"
                + " an encrypted key must be decrypted first, e.g. with openssl pkey");
    }

    private static void requireFile(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + " is not a file" + (Files.exists(file) ? "" : " (it does not exist)"));
        }
    }

    /** PEM text of certificates, or of a private key (unencrypted PKCS#8), as openssl writes them. */
    public static String toPem(Object... items) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            for (Object item : items) {
                if (item instanceof PrivateKey key) {
                    writer.writeObject(new JcaPKCS8Generator(key, null));
                } else {
                    writer.writeObject(item);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot write PEM: " + e.getMessage(), e);
        }
        return out.toString();
    }
}
