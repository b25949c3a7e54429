/**
 * Row templates for the synthetic ibdiagnet directory, taken from the real ndr-fat-tree-a run
 * (ibdiagnet 2.10, Quantum-2 + ConnectX-7). Placeholders: `{G}` node GUID, `{P}` port number,
 * `{L}` LID, `{SM}` master SM LID, `{D}` node description.
 */
export const H = {
  NODES:
    'NodeDesc,NumPorts,NodeType,ClassVersion,BaseVersion,SystemImageGUID,NodeGUID,PortGUID,DeviceID,' +
    'PartitionCap,revision,VendorID,LocalPortNum',
  PORTS:
    'NodeGuid,PortGuid,PortNum,MKey,GIDPrfx,MSMLID,LID,CapMsk,M_KeyLeasePeriod,DiagCode,LinkWidthActv,' +
    'LinkWidthSup,LinkWidthEn,LocalPortNum,LinkSpeedEn,LinkSpeedActv,LMC,MKeyProtBits,LinkDownDefState,' +
    'PortPhyState,PortState,LinkSpeedSup,VLArbHighCap,VLHighLimit,InitType,VLCap,MSMSL,NMTU,' +
    'FilterRawOutb,FilterRawInb,PartEnfOutb,PartEnfInb,OpVLs,HoQLife,VLStallCnt,MTUCap,InitTypeReply,' +
    'VLArbLowCap,PKeyViolations,MKeyViolations,SubnTmo,MulticastPKeyTrapSuppressionEnabled,' +
    'ClientReregister,GUIDCap,QKeyViolations,MaxCreditHint,OverrunErrs,LocalPhyError,RespTimeValue,' +
    'LinkRoundTripLatency,OOOSLMask,CapMsk2,FECActv,RetransActv',
  EXTENDED_PORT_INFO:
    'NodeGuid,PortGuid,PortNum,StateChangeEnable,RouterLIDEn,SHArPANEn,AME,LinkSpeedSupported,' +
    'LinkSpeedEnabled,LinkSpeedActive,ActiveRSFECParity,ActiveRSFECData,CapabilityMask,FECModeActive,' +
    'RetransMode,FDR10FECModeSupported,FDR10FECModeEnabled,FDRFECModeSupported,FDRFECModeEnabled,' +
    'EDR20FECModeSupported,EDR20FECModeEnabled,EDRFECModeSupported,EDRFECModeEnabled,' +
    'FDR10RetranSupported,FDR10RetranEnabled,FDRRetranSupported,FDRRetranEnabled,EDR20RetranSupported,' +
    'EDR20RetranEnabled,EDRRetranSupported,EDRRetranEnabled,IsSpecialPort,SpecialPortType,' +
    'SpecialPortCapabilityMask,HDRFECModeSupported,HDRFECModeEnabled,OOOSLMask,AdaptiveTimeoutSLMask,' +
    'NDRFECModeSupported,NDRFECModeEnabled',
  FEC_MODE:
    'NodeGuid,PortGuid,PortNum,FECActv,FDRFECSup,FDRFECEn,EDRFECSup,EDRFECEn,HDRFECSup,HDRFECEn,' +
    'NDRFECSup,NDRFECEn,FDR10FECSup,FDR10FECEn,EDR20FECSup,EDR20FECEn',
  PM_PORT_SAMPLES_CONTROL:
    'NodeGUID,PortGUID,PortNumber,Tick,CounterWidth,CounterMask0,CounterMasks1to9,CounterMasks10to14,' +
    'SampleMechanisms,SampleStatus,OptionMask,VendorMask,SampleStart,SampleInterval,Tag,CounterSelect0,' +
    'CounterSelect1,CounterSelect2,CounterSelect3,CounterSelect4,CounterSelect5,CounterSelect6,' +
    'CounterSelect7,CounterSelect8,CounterSelect9,CounterSelect10,CounterSelect11,CounterSelect12,' +
    'CounterSelect13,CounterSelect14',
  LINKS: 'NodeGuid1,PortNum1,NodeGuid2,PortNum2',
  SM_INFO: 'NodeGUID,PortGUID,PortNumber,GUID,Sm_Key,ActCount,SmState,Priority',
  PM:
    'NodeGUID,PortGUID,PortNumber,LinkDownedCounter,LinkErrorRecoveryCounter,SymbolErrorCounter,' +
    'PortRcvRemotePhysicalErrors,PortRcvErrors,PortXmitDiscards,PortRcvSwitchRelayErrors,' +
    'ExcessiveBufferOverrunErrors,LocalLinkIntegrityErrors,PortRcvConstraintErrors,' +
    'PortXmitConstraintErrors,VL15Dropped,PortXmitData,PortRcvData,PortXmitPkts,PortRcvPkts,PortXmitWait,' +
    'PortXmitDataExtended,PortRcvDataExtended,PortXmitPktsExtended,PortRcvPktsExtended,' +
    'PortUniCastXmitPkts,PortUniCastRcvPkts,PortMultiCastXmitPkts,PortMultiCastRcvPkts,' +
    'SymbolErrorCounterExt,LinkErrorRecoveryCounterExt,LinkDownedCounterExt,PortRcvErrorsExt,' +
    'PortRcvRemotePhysicalErrorsExt,PortRcvSwitchRelayErrorsExt,PortXmitDiscardsExt,' +
    'PortXmitConstraintErrorsExt,PortRcvConstraintErrorsExt,LocalLinkIntegrityErrorsExt,' +
    'ExcessiveBufferOverrunErrorsExt,VL15DroppedExt,PortXmitWaitExt,QP1DroppedExt,retransmission_per_sec,' +
    ' max_retransmission_rate,PortLocalPhysicalErrors,PortMalformedPacketErrors,PortBufferOverrunErrors,' +
    'PortDLIDMappingErrors,PortVLMappingErrors,PortLoopingErrors,PortInactiveDiscards,' +
    'PortNeighborMTUDiscards,PortSwLifetimeLimitDiscards,PortSwHOQLifetimeLimitDiscards',
  TEMP_SENSING: 'NodeGUID,CurrentTemperature',
};

export const ROW = {
  SW_NODE: '"{D}",65,2,1,1,{G},{G},{G},54002,8,160,713,63',
  CA_NODE: '"{D}",1,1,1,1,{G},{G},{G},4129,128,0,713,1',
  SW_PORT:
    '{G},{G},{P},0x0000000000000000,0x0000000000000000,0,0,0,0,0,2,19,19,0,3845,2052,0,0,2,5,4,3845,8,1,' +
    '0,4,0,5,0,0,0,0,3,18,7,5,0,8,0,0,0,1,0,0,0,0,8,8,0,158,N/A,N/A,4,0',
  CA_PORT:
    '{G},{G},1,0x0000000000000000,0xfe80000000000000,{SM},{L},2807162952,0,0,2,19,19,1,3841,2048,0,0,2,5,' +
    '4,3841,8,4,0,3,0,5,0,0,0,0,3,0,0,5,0,8,0,0,18,1,0,8,0,0,8,8,16,142,0x0,1074,4,0',
  EXT_PORT:
    '{G},{G},{P},0x00,0x00,0x00,0x01,0x00,0x00,0x00,0x001e,0x0202,0x0010,0x04,0x00,0x0003,0x0003,0x0003,' +
    '0x0003,0x0000,0x0000,0x000d,0x000d,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0,N/A,0x00,0x6018,0x6018,' +
    '0x0000,0x0000,0x6018,0x6018',
  FEC: '{G},{G},{P},4,0x0003,0x0003,0x000d,0x000d,0x6018,0x6018,0x6018,0x6018,0x0003,0x0003,0x0000,0x0000',
  SAMPLES:
    '{G},{G},{P},0x07,0x04,0x03,0x00000000,0x0000,0x00,0x00,0x01800000008cf7fc,0x0000000000000000,' +
    '0x00000000,0x00000000,0x0000,0x0000,0x0000,0x0000,0x0000,0x0000,0x0000,0x0000,0x0000,0x0000,0x0000,' +
    '0x0000,0x0000,0x0000,0x0000,0x0000',
};
