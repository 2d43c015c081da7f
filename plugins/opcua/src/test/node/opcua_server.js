// A node-opcua server for the driver's tests: node opcua_server.js PORT PKI_DIR
// Object Device (ns=1;s=Device) with variables in namespace 1: Temperature (Double, an AnalogItem in
// degree Celsius, range -40 to 150, changes every 100 ms), Counter (UInt32, +1 every 100 ms), SetPoint
// (Int16, writable), Pressure (Double, an AnalogItem in bar, range 0 to 10). Endpoints: None, and Basic256Sha256 Sign and SignAndEncrypt.
// Client certificates are trusted only when put in PKI_DIR/trusted/certs before the start.
// It prints "ready CERTIFICATE_FILE" once it listens.
const path = require("path");
const { SecurityPolicy } = require("node-opcua-secure-channel");
const { OPCUACertificateManager } = require("node-opcua-certificate-manager");
const { MessageSecurityMode } = require("node-opcua-service-secure-channel");
const { OPCUAServer } = require("node-opcua-server");
const { DataType, Variant } = require("node-opcua-variant");
const { StatusCodes } = require("node-opcua-status-code");
const { standardUnits } = require("node-opcua-data-access");

async function main() {
  const port = parseInt(process.argv[2], 10);
  const pki = process.argv[3];
  const serverCertificateManager = new OPCUACertificateManager({ rootFolder: pki,
    automaticallyAcceptUnknownCertificate: false });
  await serverCertificateManager.initialize();
  const server = new OPCUAServer({
    port, host: "127.0.0.1", hostname: "127.0.0.1", alternateHostname: [],
    resourcePath: "/salgate",
    serverCertificateManager,
    securityPolicies: [SecurityPolicy.None, SecurityPolicy.Basic256Sha256],
    securityModes: [MessageSecurityMode.None, MessageSecurityMode.Sign, MessageSecurityMode.SignAndEncrypt],
    userManager: { isValidUser: (user, password) => user === "operator" && password === "s3cret" },
    allowAnonymous: true,
  });
  await server.initialize();
  const ns = server.engine.addressSpace.getOwnNamespace();
  const device = ns.addObject({ organizedBy: server.engine.addressSpace.rootFolder.objects, browseName: "Device", nodeId: "s=Device" });
  let temperature = 20.0, counter = 0, setPoint = 5;
  ns.addAnalogDataItem({ componentOf: device, browseName: "Temperature", nodeId: "s=Temperature", minimumSamplingInterval: 100, dataType: "Double",
    engineeringUnits: standardUnits.degree_celsius, engineeringUnitsRange: { low: -40, high: 150 },
    value: { get: () => new Variant({ dataType: DataType.Double, value: temperature }) } });
  ns.addAnalogDataItem({ componentOf: device, browseName: "Pressure", nodeId: "s=Pressure", minimumSamplingInterval: 100, dataType: "Double",
    engineeringUnits: standardUnits.bar, engineeringUnitsRange: { low: 0, high: 10 },
    value: { get: () => new Variant({ dataType: DataType.Double, value: 1 + (counter % 10) / 10 }) } });
  ns.addVariable({ componentOf: device, browseName: "Counter", nodeId: "s=Counter", minimumSamplingInterval: 100, dataType: "UInt32",
    accessLevel: "CurrentRead", userAccessLevel: "CurrentRead",
    value: { get: () => new Variant({ dataType: DataType.UInt32, value: counter }) } });
  ns.addVariable({ componentOf: device, browseName: "SetPoint", nodeId: "s=SetPoint", minimumSamplingInterval: 100, dataType: "Int16",
    accessLevel: "CurrentRead | CurrentWrite", userAccessLevel: "CurrentRead | CurrentWrite",
    value: { get: () => new Variant({ dataType: DataType.Int16, value: setPoint }),
             set: (v) => { setPoint = v.value; return StatusCodes.Good; } } });
  setInterval(() => { counter += 1; temperature = 20 + (counter % 50) / 10; }, 100);
  await server.start();
  console.log("ready " + server.certificateFile);
  process.on("SIGTERM", async () => { await server.shutdown(0); process.exit(0); });
}
main().catch((e) => { console.error(e); process.exit(1); });
