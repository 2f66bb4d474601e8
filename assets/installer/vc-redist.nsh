; Included by electron-builder's NSIS installer (electron-builder.yml, nsis.include).
; Natural voices run on onnxruntime, whose Windows binding and DLL import the Microsoft Visual
; C++ runtime (MSVCP140.dll, VCRUNTIME140.dll); Electron does not ship it. Where it is not
; installed, the installer says so and offers Microsoft's download page. The app itself works
; without it (eSpeak voices), and says the same when a natural voice cannot load.

!include "LogicLib.nsh"
!include "x64.nsh"

!define NS_VC_RUNTIMES "SOFTWARE\Microsoft\VisualStudio\14.0\VC\Runtimes"

!macro customInit
  SetRegView 64
  ${If} ${IsNativeARM64}
    ReadRegDWORD $0 HKLM "${NS_VC_RUNTIMES}\arm64" "Installed"
    StrCpy $1 "https://aka.ms/vs/17/release/vc_redist.arm64.exe"
  ${Else}
    ReadRegDWORD $0 HKLM "${NS_VC_RUNTIMES}\x64" "Installed"
    StrCpy $1 "https://aka.ms/vs/17/release/vc_redist.x64.exe"
  ${EndIf}
  SetRegView lastused
  ${If} $0 != 1
    MessageBox MB_YESNO|MB_ICONINFORMATION "Natural voices need the Microsoft Visual C++ Redistributable, which this computer lacks.$\r$\n$\r$\nNarration Studio installs and works without it (eSpeak voices); install it to use natural voices.$\r$\n$\r$\nOpen Microsoft's download page now?$\r$\n$1" /SD IDNO IDNO ns_vc_redist_done
    ExecShell "open" "$1"
    ns_vc_redist_done:
  ${EndIf}
!macroend
